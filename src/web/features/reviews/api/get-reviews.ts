import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { call } from "#web/lib/api";

export const getReviews = (productId: string, page: number) =>
  call("GET /products/:id/reviews", { params: { id: productId }, query: { page } });

/** Every page of a product's reviews sits under ["reviews", productId], so one invalidation refreshes all. */
export const reviewsKey = (productId: string) => ["reviews", productId] as const;

export const reviewsQueryOptions = (productId: string, page: number) =>
  queryOptions({
    queryKey: [...reviewsKey(productId), page],
    queryFn: () => getReviews(productId, page),
  });

export function useReviews(productId: string, page: number) {
  return useQuery({ ...reviewsQueryOptions(productId, page), placeholderData: keepPreviousData });
}
