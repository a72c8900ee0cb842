import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Review, ReviewInput } from "#domain/reviews";
import { refreshAfterReviewChange } from "#web/features/reviews/api/invalidate";
import { api } from "#web/lib/api";

export const updateReview = (reviewId: string, body: ReviewInput) =>
  api<Review>(`/reviews/${encodeURIComponent(reviewId)}`, { method: "PATCH", body });

export function useUpdateReview(productId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ reviewId, body }: { reviewId: string; body: ReviewInput }) => updateReview(reviewId, body),
    onSuccess: () => refreshAfterReviewChange(queryClient, productId),
  });
}
