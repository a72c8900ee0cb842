import { queryOptions, useQuery } from "@tanstack/react-query";
import { call } from "#web/lib/api";

export const getRelated = (productId: string) =>
  call("GET /products/:id/related", { params: { id: productId } });

export const relatedQueryOptions = (productId: string) =>
  queryOptions({
    queryKey: ["products", "related", productId],
    queryFn: () => getRelated(productId),
  });

export function useRelated(productId: string) {
  return useQuery(relatedQueryOptions(productId));
}
