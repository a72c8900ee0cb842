import { queryOptions, useQuery } from "@tanstack/react-query";
import type { RelatedAnswer } from "#domain/compare";
import { api } from "#web/lib/api";

export const getRelated = (productId: string) =>
  api<RelatedAnswer>(`/products/${encodeURIComponent(productId)}/related`);

export const relatedQueryOptions = (productId: string) =>
  queryOptions({
    queryKey: ["products", "related", productId],
    queryFn: () => getRelated(productId),
  });

export function useRelated(productId: string) {
  return useQuery(relatedQueryOptions(productId));
}
