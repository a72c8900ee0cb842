import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { EditableProduct, ProductInput } from "#domain/product-admin";
import { invalidateProducts } from "#web/features/manage-products/api/get-managed-products";
import { api } from "#web/lib/api";

export const createProduct = (body: ProductInput) =>
  api<{ product: EditableProduct }>("/manage/products", { method: "POST", body }).then((r) => r.product);

export function useCreateProduct() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createProduct, onSuccess: () => invalidateProducts(queryClient) });
}
