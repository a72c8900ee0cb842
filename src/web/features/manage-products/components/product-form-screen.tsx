import { ArrowLeft, PackageX } from "lucide-react";
import { Link } from "react-router";
import { moderationLabel } from "#domain/moderation";
import type { EditableProduct } from "#domain/product-admin";
import { PageHeader } from "#web/components/layout/page-header";
import { Button } from "#web/components/ui/button";
import { LoadError } from "#web/components/ui/load-error";
import { Spinner } from "#web/components/ui/spinner";
import { useManagedProduct } from "#web/features/manage-products/api/get-managed-product";
import { PlanEditor } from "#web/features/manage-products/components/plan-editor";
import { ProductForm } from "#web/features/manage-products/components/product-form";
import { ApiError } from "#web/lib/api";

type ScreenProps = {
  listPath: string;
  listName: string;
  sellerForm?: boolean;
  /** Shows the seller, under the price, the Stackbay fee and what they receive. */
  showFee?: boolean;
};

/** Add (no id) or edit (an id from the URL) a product, then back to `listPath`. */
export function ProductFormScreen({ id, ...props }: ScreenProps & { id?: string }) {
  return id ? <EditProduct id={id} {...props} /> : <AddProduct {...props} />;
}

function AddProduct({ listPath, listName, sellerForm, showFee }: ScreenProps) {
  return (
    <>
      <PageHeader title="Add Product" subtitle="Describe the product, set its price and add pictures.">
        <BackLink to={listPath} name={listName} />
      </PageHeader>
      <div className="mx-auto max-w-4xl px-4 py-8 sm:px-6">
        <ProductForm listPath={listPath} sellerForm={sellerForm} showFee={showFee} />
      </div>
    </>
  );
}

function EditProduct({ id, listPath, listName, sellerForm, showFee }: ScreenProps & { id: string }) {
  const query = useManagedProduct(id);
  const notFound = query.error instanceof ApiError && query.error.status === 404;
  return (
    <>
      <PageHeader
        title={notFound ? "Product not found" : "Edit Product"}
        subtitle={notFound ? undefined : query.data?.name}
      >
        <BackLink to={listPath} name={listName} />
      </PageHeader>
      <div className="mx-auto max-w-4xl px-4 py-8 sm:px-6">
        {query.isPending ? (
          <Spinner label="Loading the product" />
        ) : notFound ? (
          <div className="flex flex-col items-center gap-4 py-16 text-center" data-testid="product-not-found">
            <PackageX className="size-12 text-muted-foreground" aria-hidden />
            <p className="max-w-md text-muted-foreground">
              This product doesn't exist, or it isn't one you can edit.
            </p>
            <Button asChild>
              <Link to={listPath}>Back to {listName}</Link>
            </Button>
          </div>
        ) : query.isError ? (
          <LoadError what="product" error={query.error} onRetry={() => query.refetch()} />
        ) : (
          <>
            <ReviewNotice product={query.data} />
            <ProductForm
              key={query.data.id}
              product={query.data}
              listPath={listPath}
              sellerForm={sellerForm}
              showFee={showFee}
            />
            <div className="mt-6">
              <PlanEditor product={query.data} />
            </div>
          </>
        )}
      </div>
    </>
  );
}

/** The listing's review state above the form, so a seller knows what saving will do (decision 0013). */
function ReviewNotice({ product }: { product: EditableProduct }) {
  if (product.moderationStatus === "approved") return null;
  const rejected = product.moderationStatus === "rejected";
  return (
    <div
      role="status"
      data-testid="review-notice"
      className={
        rejected
          ? "mb-6 rounded-md border border-destructive/50 bg-destructive/10 p-4 text-sm"
          : "mb-6 rounded-md border border-border bg-muted p-4 text-sm"
      }
    >
      <p className="font-medium">{moderationLabel(product.moderationStatus, product.moderationReason)}</p>
      <p className="mt-1 text-muted-foreground">
        {rejected
          ? "Fix what the reason says and save: the listing goes back to review."
          : "An admin reviews this listing before it appears on the marketplace."}
      </p>
    </div>
  );
}

function BackLink({ to, name }: { to: string; name: string }) {
  return (
    <Link
      to={to}
      className="mt-4 inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground hover:underline"
    >
      <ArrowLeft className="size-4" aria-hidden />
      {name}
    </Link>
  );
}
