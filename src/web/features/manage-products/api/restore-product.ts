import { useMutation, useQueryClient } from "@tanstack/react-query";
import { invalidateProducts } from "#web/features/manage-products/api/get-managed-products";
import { call } from "#web/lib/api";

export const restoreProduct = (id: string) =>
  call("POST /manage/products/:id/restore", { params: { id } }).then((r) => r.product);

export function useRestoreProduct() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: restoreProduct, onSuccess: () => invalidateProducts(queryClient) });
}
