import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ReviewInput } from "#domain/reviews";
import { refreshAfterReviewChange } from "#web/features/reviews/api/invalidate";
import { call } from "#web/lib/api";

export const createReview = (productId: string, body: ReviewInput) =>
  call("POST /products/:id/reviews", { params: { id: productId }, body });

export function useCreateReview(productId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ReviewInput) => createReview(productId, body),
    onSuccess: () => refreshAfterReviewChange(queryClient, productId),
  });
}
