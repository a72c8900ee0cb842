import { useMutation, useQueryClient } from "@tanstack/react-query";
import { refreshAfterReviewChange } from "#web/features/reviews/api/invalidate";
import { call } from "#web/lib/api";

export const moderateReview = (reviewId: string, action: "hide" | "restore", reason: string) =>
  call(`POST /admin/reviews/:id/${action}`, { params: { id: reviewId }, body: { reason } });

export function useModerateReview(productId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      reviewId,
      action,
      reason,
    }: {
      reviewId: string;
      action: "hide" | "restore";
      reason: string;
    }) => moderateReview(reviewId, action, reason),
    onSuccess: () => refreshAfterReviewChange(queryClient, productId),
  });
}
