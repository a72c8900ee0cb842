import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Review } from "#domain/reviews";
import { refreshAfterReviewChange } from "#web/features/reviews/api/invalidate";
import { api } from "#web/lib/api";

export const replyToReview = (reviewId: string, text: string) =>
  api<Review>(`/reviews/${encodeURIComponent(reviewId)}/reply`, { method: "POST", body: { text } });

export function useReplyToReview(productId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ reviewId, text }: { reviewId: string; text: string }) => replyToReview(reviewId, text),
    onSuccess: () => refreshAfterReviewChange(queryClient, productId),
  });
}
