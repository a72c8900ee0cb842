import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { EditableProduct } from "#domain/product-admin";
import { invalidateProducts } from "#web/features/manage-products/api/get-managed-products";
import { api } from "#web/lib/api";

export const restoreProduct = (id: string) =>
  api<{ product: EditableProduct }>(`/manage/products/${encodeURIComponent(id)}/restore`, {
    method: "POST",
  }).then((r) => r.product);

export function useRestoreProduct() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: restoreProduct, onSuccess: () => invalidateProducts(queryClient) });
}
