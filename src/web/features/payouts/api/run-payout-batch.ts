import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { RunPayoutBatchInput } from "#domain/finance";
import { payoutsKey } from "#web/features/payouts/api/get-payout-preview";
import { call } from "#web/lib/api";

/** A super admin approves a batch; every payout list and the preview reload. */
export function useRunPayoutBatch() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: RunPayoutBatchInput) => call("POST /admin/payouts/batches", { body: input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: payoutsKey }),
  });
}

/** A bank payout arrived (with the bank's reference) or failed (with the reason). */
export function useSettlePayout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, outcome }: { id: string; outcome: { paid: string } | { failed: string } }) =>
      "paid" in outcome
        ? call("POST /admin/payouts/:id/paid", { params: { id }, body: { reference: outcome.paid } })
        : call("POST /admin/payouts/:id/failed", { params: { id }, body: { reason: outcome.failed } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: payoutsKey }),
  });
}
