import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { BatchPayout, PayoutBatchDetail, RunPayoutBatchInput } from "#domain/finance";
import { payoutsKey } from "#web/features/payouts/api/get-payout-preview";
import { api } from "#web/lib/api";

/** A super admin approves a batch; every payout list and the preview reload. */
export function useRunPayoutBatch() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: RunPayoutBatchInput) =>
      api<PayoutBatchDetail>("/admin/payouts/batches", { method: "POST", body: input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: payoutsKey }),
  });
}

/** A bank payout arrived (with the bank's reference) or failed (with the reason). */
export function useSettlePayout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, outcome }: { id: string; outcome: { paid: string } | { failed: string } }) =>
      "paid" in outcome
        ? api<BatchPayout>(`/admin/payouts/${encodeURIComponent(id)}/paid`, {
            method: "POST",
            body: { reference: outcome.paid },
          })
        : api<BatchPayout>(`/admin/payouts/${encodeURIComponent(id)}/failed`, {
            method: "POST",
            body: { reason: outcome.failed },
          }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: payoutsKey }),
  });
}
