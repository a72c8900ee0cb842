import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { PayoutAnswer } from "#domain/refunds";
import { refundsKey } from "#web/features/refunds/api/get-refunds";
import { api } from "#web/lib/api";

export const retryPayout = (refundId: string) =>
  api<PayoutAnswer>(`/admin/refunds/${encodeURIComponent(refundId)}/payout/retry`, { method: "POST" }).then(
    (r) => r.payout,
  );

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
