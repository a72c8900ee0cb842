import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { RefundDecisionInput } from "#domain/refunds";
import { refundsKey } from "#web/features/refunds/api/get-refunds";
import { call } from "#web/lib/api";

export const decideRefund = ({ id, decision, note }: { id: string } & RefundDecisionInput) =>
  call("POST /refunds/:id/decision", { params: { id }, body: note ? { decision, note } : { decision } }).then(
    (r) => r.refund,
  );

/** Any party's step on a refund request; every list that shows requests, and the orders, reload. */
export function useDecideRefund() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: decideRefund,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: refundsKey }),
        queryClient.invalidateQueries({ queryKey: ["orders"] }),
        queryClient.invalidateQueries({ queryKey: ["admin", "orders"] }),
        // An approved refund revokes the item's licenses.
        queryClient.invalidateQueries({ queryKey: ["licenses"] }),
      ]),
  });
}
