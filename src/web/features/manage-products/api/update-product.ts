import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ProductInput } from "#domain/product-admin";
import { invalidateProducts } from "#web/features/manage-products/api/get-managed-products";
import { call } from "#web/lib/api";

export const updateProduct = ({ id, body }: { id: string; body: ProductInput }) =>
  call("PATCH /manage/products/:id", { params: { id }, body }).then((r) => r.product);

/** Replaces every editable field of the product. */
export function useUpdateProduct() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateProduct, onSuccess: () => invalidateProducts(queryClient) });
}
