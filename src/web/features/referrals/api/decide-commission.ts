import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { CommissionDecisionInput } from "#domain/commission-holds";
import { commissionsKey } from "#web/features/referrals/api/get-commissions";
import { call } from "#web/lib/api";

export const decideCommission = ({ id, decision, note }: { id: string } & CommissionDecisionInput) =>
  call("POST /admin/commissions/:id/decision", {
    params: { id },
    body: note ? { decision, note } : { decision },
  }).then((r) => r.commission);

/** An admin releases or rejects a held commission; every commission list reloads. */
export function useDecideCommission() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: decideCommission,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: commissionsKey }),
  });
}
