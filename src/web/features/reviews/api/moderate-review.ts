import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Review } from "#domain/reviews";
import { refreshAfterReviewChange } from "#web/features/reviews/api/invalidate";
import { api } from "#web/lib/api";

export const moderateReview = (reviewId: string, action: "hide" | "restore", reason: string) =>
  api<Review>(`/admin/reviews/${encodeURIComponent(reviewId)}/${action}`, {
    method: "POST",
    body: { reason },
  });

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
