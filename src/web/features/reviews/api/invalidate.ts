import type { QueryClient } from "@tanstack/react-query";
import { reviewsKey } from "#web/features/reviews/api/get-reviews";

/** A review change moves the product's rating and count too: its page, listings and featured cards. */
export async function refreshAfterReviewChange(queryClient: QueryClient, productId: string) {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: reviewsKey(productId) }),
    queryClient.invalidateQueries({ queryKey: ["products"] }),
  ]);
}
