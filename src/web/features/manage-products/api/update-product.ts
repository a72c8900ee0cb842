import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { EditableProduct, ProductInput } from "#domain/product-admin";
import { invalidateProducts } from "#web/features/manage-products/api/get-managed-products";
import { api } from "#web/lib/api";

export const updateProduct = ({ id, body }: { id: string; body: ProductInput }) =>
  api<{ product: EditableProduct }>(`/manage/products/${encodeURIComponent(id)}`, {
    method: "PATCH",
    body,
  }).then((r) => r.product);

/** Replaces every editable field of the product. */
export function useUpdateProduct() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateProduct, onSuccess: () => invalidateProducts(queryClient) });
}
