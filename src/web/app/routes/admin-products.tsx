import { paths } from "#domain/routes";
import { PageHeader } from "#web/components/layout/page-header";
import { RequireRole } from "#web/features/auth/components/guards";
import { ManagedProductList } from "#web/features/manage-products/components/managed-product-list";

export function Component() {
  return (
    <RequireRole allow="admin">
      <PageHeader
        title="Products"
        subtitle="Every product on Stackbay, active and inactive. Deleting a product only hides it."
      />
      <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
        <ManagedProductList
          mine={false}
          addPath={paths.admin.addProduct()}
          editPath={paths.admin.editProduct}
        />
      </div>
    </RequireRole>
  );
}
