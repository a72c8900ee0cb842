import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { EditableProduct } from "#domain/product-admin";
import { invalidateProducts } from "#web/features/manage-products/api/get-managed-products";
import { api } from "#web/lib/api";

export const deleteProduct = (id: string) =>
  api<{ product: EditableProduct }>(`/manage/products/${encodeURIComponent(id)}`, {
    method: "DELETE",
  }).then((r) => r.product);

/** Deactivates the product (soft delete): it leaves the marketplace until restored. */
export function useDeleteProduct() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteProduct, onSuccess: () => invalidateProducts(queryClient) });
}
