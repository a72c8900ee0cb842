import { useMutation, useQueryClient } from "@tanstack/react-query";
import { reviewsKey } from "#web/features/reviews/api/get-reviews";
import { api } from "#web/lib/api";

export const reportReview = (reviewId: string) =>
  api<null>(`/reviews/${encodeURIComponent(reviewId)}/report`, { method: "POST" });

export function useReportReview(productId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: reportReview,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: reviewsKey(productId) }),
  });
}
