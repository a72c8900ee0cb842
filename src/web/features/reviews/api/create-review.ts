import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Review, ReviewInput } from "#domain/reviews";
import { refreshAfterReviewChange } from "#web/features/reviews/api/invalidate";
import { api } from "#web/lib/api";

export const createReview = (productId: string, body: ReviewInput) =>
  api<Review>(`/products/${encodeURIComponent(productId)}/reviews`, { method: "POST", body });

export function useCreateReview(productId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ReviewInput) => createReview(productId, body),
    onSuccess: () => refreshAfterReviewChange(queryClient, productId),
  });
}
