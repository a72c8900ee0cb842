import { paths } from "#domain/routes";
import { PageHeader } from "#web/components/layout/page-header";
import { RequireRole } from "#web/features/auth/components/guards";
import { ManagedProductList } from "#web/features/manage-products/components/managed-product-list";

export function Component() {
  return (
    <RequireRole allow="seller">
      <PageHeader
        title="My Products"
        subtitle="The products you sell on Stackbay. Deleting a product hides it from buyers until you restore it."
      />
      <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
        <ManagedProductList mine addPath={paths.seller.addProduct()} editPath={paths.seller.editProduct} />
      </div>
    </RequireRole>
  );
}
