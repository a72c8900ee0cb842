import { useMutation, useQueryClient } from "@tanstack/react-query";
import { refreshAfterReviewChange } from "#web/features/reviews/api/invalidate";
import { call } from "#web/lib/api";

export const replyToReview = (reviewId: string, text: string) =>
  call("POST /reviews/:id/reply", { params: { id: reviewId }, body: { text } });

export function useReplyToReview(productId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ reviewId, text }: { reviewId: string; text: string }) => replyToReview(reviewId, text),
    onSuccess: () => refreshAfterReviewChange(queryClient, productId),
  });
}
