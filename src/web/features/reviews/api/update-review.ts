import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ReviewInput } from "#domain/reviews";
import { refreshAfterReviewChange } from "#web/features/reviews/api/invalidate";
import { call } from "#web/lib/api";

export const updateReview = (reviewId: string, body: ReviewInput) =>
  call("PATCH /reviews/:id", { params: { id: reviewId }, body });

export function useUpdateReview(productId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ reviewId, body }: { reviewId: string; body: ReviewInput }) => updateReview(reviewId, body),
    onSuccess: () => refreshAfterReviewChange(queryClient, productId),
  });
}
