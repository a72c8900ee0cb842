import { Eye, Package, Pencil, Plus, RotateCcw, Search, Trash2 } from "lucide-react";
import { useRef, useState } from "react";
import { Link } from "react-router";
import { listedPriceLabel } from "#domain/meter-units";
import { type ModerationStatus, moderationLabel } from "#domain/moderation";
import { formatUnitPrice, priceSuffix } from "#domain/money";
import { type ManagedProductRow, type ProductStatusFilter, productStatuses } from "#domain/product-admin";
import { paths } from "#domain/routes";
import { PagedList } from "#web/components/layout/paged-list";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "#web/components/ui/alert-dialog";
import { Badge } from "#web/components/ui/badge";
import { Button } from "#web/components/ui/button";
import { Input } from "#web/components/ui/input";
import { NativeSelect } from "#web/components/ui/select";
import {
  Table,
  TableBody,
  TableCell,
  TableFrame,
  TableHead,
  TableHeader,
  TableRow,
} from "#web/components/ui/table";
import { useDeleteProduct } from "#web/features/manage-products/api/delete-product";
import { useManagedProducts } from "#web/features/manage-products/api/get-managed-products";
import { useRestoreProduct } from "#web/features/manage-products/api/restore-product";
import { runMutation } from "#web/lib/mutation";
import { useDebouncedInput } from "#web/lib/use-debounced";
import { useSearchState } from "#web/lib/use-search-state";

const statusLabels: Record<ProductStatusFilter, string> = {
  all: "All",
  active: "Active",
  inactive: "Inactive",
};

const isStatus = (value: string | null): value is ProductStatusFilter =>
  productStatuses.includes(value as ProductStatusFilter);

const REGION_ID = "managed-products";

const columns = ["Product", "Category", "Price", "Vendor", "Status", "Review", "Actions"];

const reviewBadges: Record<ModerationStatus, "success" | "secondary" | "outline"> = {
  approved: "success",
  pending: "secondary",
  rejected: "outline",
};

/**
 * The products a person manages: search and status in the URL, a page of 25 at a time, and per row
 * View, Edit and Delete (deactivate, after a confirmation) or Restore. `mine` limits it to the
 * caller's own products; the server does that for sellers anyway.
 */
export function ManagedProductList({
  mine,
  addPath,
  editPath,
}: {
  mine: boolean;
  addPath: string;
  editPath: (id: string) => string;
}) {
  const { params, page, go } = useSearchState();
  const search = params.get("search") ?? "";
  const rawStatus = params.get("status");
  const status = isStatus(rawStatus) ? rawStatus : "all";
  const [searchText, setSearchText] = useDebouncedInput(search, (typed) =>
    go({ search: typed, page: undefined }),
  );

  const query = useManagedProducts({ search, status, page, mine });
  const [confirming, setConfirming] = useState<ManagedProductRow | null>(null);
  // The Delete button that opened the dialog gets focus back; once the row turns inactive that button
  // is gone, and the table takes focus instead of the page's top.
  const opener = useRef<HTMLElement | null>(null);
  const ask = (product: ManagedProductRow) => {
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setConfirming(product);
  };
  const remove = useDeleteProduct();
  const restore = useRestoreProduct();

  const confirmDelete = async () => {
    if (!confirming) return;
    const result = await runMutation(remove.mutateAsync(confirming.id), {
      success: { title: "Success", description: "Product deleted successfully" },
      error: { title: "Failed to delete product" },
    });
    if (result.ok && !opener.current?.isConnected) document.getElementById(REGION_ID)?.focus();
  };

  const restoreProduct = (product: ManagedProductRow) =>
    runMutation(restore.mutateAsync(product.id), {
      success: { title: "Success", description: "Product restored successfully" },
      error: { title: "Failed to restore product" },
    });

  return (
    <>
      <search className="mb-6 grid gap-3 sm:grid-cols-[1fr_12rem_auto]">
        <div className="relative">
          <Search
            className="pointer-events-none absolute top-3 left-3 size-4 text-muted-foreground"
            aria-hidden
          />
          <label htmlFor="manage-product-search" className="sr-only">
            Search products
          </label>
          <Input
            id="manage-product-search"
            type="search"
            placeholder="Name, vendor or description"
            className="pl-9"
            maxLength={100}
            value={searchText}
            onChange={(event) => setSearchText(event.target.value)}
          />
        </div>
        <label htmlFor="manage-product-status" className="sr-only">
          Status
        </label>
        <NativeSelect
          id="manage-product-status"
          value={status}
          onChange={(event) =>
            go({ status: event.target.value === "all" ? undefined : event.target.value, page: undefined })
          }
        >
          {productStatuses.map((s) => (
            <option key={s} value={s}>
              {statusLabels[s]}
            </option>
          ))}
        </NativeSelect>
        <Button asChild>
          <Link to={addPath}>
            <Plus aria-hidden />
            Add Product
          </Link>
        </Button>
      </search>

      <PagedList
        query={query}
        what="products"
        empty="No products found."
        onPage={(p) => go({ page: String(p) })}
      >
        {(items) => (
          <TableFrame id={REGION_ID} aria-label="Products" className="bg-card">
            <Table className="min-w-[60rem]" data-testid="managed-products-table">
              <TableHeader>
                {columns.map((column) => (
                  <TableHead key={column}>
                    {column === "Actions" ? <span className="sr-only">{column}</span> : column}
                  </TableHead>
                ))}
              </TableHeader>
              <TableBody>
                {items.map((product) => (
                  <ProductRow
                    key={product.id}
                    product={product}
                    editPath={editPath(product.id)}
                    busy={restore.isPending && restore.variables === product.id}
                    onDelete={() => ask(product)}
                    onRestore={() => restoreProduct(product)}
                  />
                ))}
              </TableBody>
            </Table>
          </TableFrame>
        )}
      </PagedList>

      <AlertDialog
        open={confirming !== null}
        onOpenChange={(open) => {
          if (!open) setConfirming(null);
        }}
      >
        {confirming && (
          <AlertDialogContent
            onCloseAutoFocus={(event) => {
              event.preventDefault();
              opener.current?.focus();
            }}
          >
            <AlertDialogHeader>
              <AlertDialogTitle>Are you sure?</AlertDialogTitle>
              <AlertDialogDescription>
                This deactivates “{confirming.name}”: it disappears from the marketplace but is not erased.
                You can undo it later by editing the product or choosing Restore.
              </AlertDialogDescription>
            </AlertDialogHeader>
            <AlertDialogFooter>
              <AlertDialogCancel>Cancel</AlertDialogCancel>
              <AlertDialogAction variant="destructive" onClick={confirmDelete}>
                Delete
              </AlertDialogAction>
            </AlertDialogFooter>
          </AlertDialogContent>
        )}
      </AlertDialog>
    </>
  );
}

function ProductRow({
  product,
  editPath,
  busy,
  onDelete,
  onRestore,
}: {
  product: ManagedProductRow;
  editPath: string;
  busy: boolean;
  onDelete: () => void;
  onRestore: () => void;
}) {
  const struck = product.originalPrice !== null && product.originalPrice > product.price;
  return (
    <TableRow data-testid="managed-product-row">
      <TableCell>
        <div className="flex items-center gap-3">
          {product.imageUrl ? (
            <img
              src={product.imageUrl}
              alt=""
              width={48}
              height={48}
              loading="lazy"
              className="size-12 shrink-0 rounded-md bg-muted object-cover"
            />
          ) : (
            <div className="flex size-12 shrink-0 items-center justify-center rounded-md bg-muted text-muted-foreground">
              <Package className="size-5" aria-hidden />
            </div>
          )}
          <span className="font-medium">{product.name}</span>
        </div>
      </TableCell>
      <TableCell>{product.categoryName ?? product.category}</TableCell>
      <TableCell className="whitespace-nowrap tabular-nums">
        {product.payAsYouGo ? (
          <span className="whitespace-normal" data-testid="managed-product-payg">
            {listedPriceLabel(product.payAsYouGo, (usd) => formatUnitPrice(usd))}
          </span>
        ) : (
          <>
            {formatUnitPrice(product.price)}
            {priceSuffix(product.pricingUnit, product.name, product.price)}
          </>
        )}
        {!product.payAsYouGo && struck && product.originalPrice !== null && (
          <s className="ml-2 text-muted-foreground">
            <span className="sr-only">was </span>
            {formatUnitPrice(product.originalPrice)}
          </s>
        )}
      </TableCell>
      <TableCell>{product.vendor ?? <span className="text-muted-foreground">—</span>}</TableCell>
      <TableCell>
        <Badge variant={product.isActive ? "success" : "outline"} data-testid="managed-product-status">
          {product.isActive ? "Active" : "Inactive"}
        </Badge>
      </TableCell>
      <TableCell className="max-w-64" data-testid="managed-product-review">
        <Badge variant={reviewBadges[product.moderationStatus]}>
          {product.moderationStatus === "rejected"
            ? "Rejected"
            : moderationLabel(product.moderationStatus, null)}
        </Badge>
        {product.moderationStatus === "rejected" && product.moderationReason && (
          <p className="mt-1 text-sm text-destructive">
            <span className="sr-only">Rejected: </span>
            {product.moderationReason}
          </p>
        )}
        {product.moderationStatus === "rejected" && (
          <p className="mt-1 text-xs text-muted-foreground">Edit and save the product to resubmit it.</p>
        )}
      </TableCell>
      <TableCell className="py-2">
        <div className="flex justify-end gap-1">
          {product.isActive && product.moderationStatus === "approved" ? (
            <Button asChild variant="ghost" size="sm">
              <Link to={paths.product(product.id)}>
                <Eye aria-hidden />
                View<span className="sr-only"> {product.name}</span>
              </Link>
            </Button>
          ) : (
            <Button
              variant="ghost"
              size="sm"
              disabled
              title="Only active, approved products are on the marketplace"
            >
              <Eye aria-hidden />
              View<span className="sr-only"> {product.name} (not on the marketplace)</span>
            </Button>
          )}
          <Button asChild variant="ghost" size="sm">
            <Link to={editPath}>
              <Pencil aria-hidden />
              Edit<span className="sr-only"> {product.name}</span>
            </Link>
          </Button>
          {product.isActive ? (
            <Button
              variant="ghost"
              size="sm"
              className="text-destructive hover:text-destructive"
              onClick={onDelete}
            >
              <Trash2 aria-hidden />
              Delete<span className="sr-only"> {product.name}</span>
            </Button>
          ) : (
            <Button variant="ghost" size="sm" disabled={busy} onClick={onRestore}>
              <RotateCcw aria-hidden />
              Restore<span className="sr-only"> {product.name}</span>
            </Button>
          )}
        </div>
      </TableCell>
    </TableRow>
  );
}
