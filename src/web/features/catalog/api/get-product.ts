import { queryOptions, useQuery } from "@tanstack/react-query";
import type { ProductDetail } from "#domain/catalog-schemas";
import { api } from "#web/lib/api";

export const productQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ["products", "detail", id],
    queryFn: () => api<ProductDetail>(`/products/${encodeURIComponent(id)}`),
  });

export function useProduct(id: string) {
  return useQuery(productQueryOptions(id));
}
