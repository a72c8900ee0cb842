import { useParams } from "react-router";
import { paths } from "#domain/routes";
import { RequireRole } from "#web/features/auth/components/guards";
import { ProductFormScreen } from "#web/features/manage-products/components/product-form-screen";

/** /seller/products/new and /seller/products/:id/edit. */
export function Component() {
  const { id } = useParams();
  return (
    <RequireRole allow="seller">
      <ProductFormScreen
        id={id}
        listPath={paths.seller.products()}
        listName="My Products"
        sellerForm
        showFee
      />
    </RequireRole>
  );
}
