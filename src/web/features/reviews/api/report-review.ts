import { useMutation, useQueryClient } from "@tanstack/react-query";
import { reviewsKey } from "#web/features/reviews/api/get-reviews";
import { call } from "#web/lib/api";

export const reportReview = (reviewId: string) =>
  call("POST /reviews/:id/report", { params: { id: reviewId } });

export function useReportReview(productId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: reportReview,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: reviewsKey(productId) }),
  });
}
