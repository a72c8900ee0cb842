import { useParams } from "react-router";
import { paths } from "#domain/routes";
import { RequireRole } from "#web/features/auth/components/guards";
import { ProductFormScreen } from "#web/features/manage-products/components/product-form-screen";

/** /admin/add-product and /admin/products/:id/edit. */
export function Component() {
  const { id } = useParams();
  return (
    <RequireRole allow="admin">
      <ProductFormScreen id={id} listPath={paths.admin.products()} listName="Products" />
    </RequireRole>
  );
}
