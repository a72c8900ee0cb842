import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ProductInput } from "#domain/product-admin";
import { invalidateProducts } from "#web/features/manage-products/api/get-managed-products";
import { call } from "#web/lib/api";

export const createProduct = (body: ProductInput) =>
  call("POST /manage/products", { body }).then((r) => r.product);

export function useCreateProduct() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createProduct, onSuccess: () => invalidateProducts(queryClient) });
}
