import { useMutation, useQueryClient } from "@tanstack/react-query";
import { invalidateProducts } from "#web/features/manage-products/api/get-managed-products";
import { call } from "#web/lib/api";

export const deleteProduct = (id: string) =>
  call("DELETE /manage/products/:id", { params: { id } }).then((r) => r.product);

/** Deactivates the product (soft delete): it leaves the marketplace until restored. */
export function useDeleteProduct() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteProduct, onSuccess: () => invalidateProducts(queryClient) });
}
