import { useMutation, useQueryClient } from "@tanstack/react-query";
import { refundsKey } from "#web/features/refunds/api/get-refunds";
import { call } from "#web/lib/api";

export const retryPayout = (refundId: string) =>
  call("POST /admin/refunds/:id/payout/retry", { params: { id: refundId } }).then((r) => r.payout);

/** Admins: a refund the provider refused goes to the provider again; the lists and orders reload. */
export function useRetryPayout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: retryPayout,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: refundsKey }),
        queryClient.invalidateQueries({ queryKey: ["admin", "orders"] }),
      ]),
  });
}
