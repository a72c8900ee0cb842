import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { FeeRuleInput, FeeRules, FeeRuleView, FeeScope, SellerFees } from "#domain/fees";
import { auditLogKey } from "#web/features/audit/api/get-audit-log";
import { api } from "#web/lib/api";

export const feeRulesQueryOptions = () =>
  queryOptions({ queryKey: ["admin", "fees"], queryFn: () => api<FeeRules>("/admin/fees") });

/** The platform fee rules, for super admins. */
export function useFeeRules() {
  return useQuery(feeRulesQueryOptions());
}

export const myFeesQueryOptions = () =>
  queryOptions({ queryKey: ["fees", "mine"], queryFn: () => api<SellerFees>("/fees/mine") });

/** The fee on the signed-in seller's sales, per category. */
export function useMyFees(enabled = true) {
  return useQuery({ ...myFeesQueryOptions(), enabled });
}

function useInvalidateFees() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: feeRulesQueryOptions().queryKey }),
      queryClient.invalidateQueries({ queryKey: myFeesQueryOptions().queryKey }),
      queryClient.invalidateQueries({ queryKey: auditLogKey }),
    ]);
}

export const saveFeeRule = (body: FeeRuleInput) =>
  api<{ rule: FeeRuleView }>("/admin/fees", { method: "PUT", body }).then((r) => r.rule);

/** Sets a rule's percentage; the rules and the audit log reload. */
export function useSaveFeeRule() {
  return useMutation({ mutationFn: saveFeeRule, onSuccess: useInvalidateFees() });
}

export const removeFeeRule = ({ scope, subject }: { scope: FeeScope; subject: string }) =>
  api<null>(
    subject
      ? `/admin/fees/${encodeURIComponent(scope)}/${encodeURIComponent(subject)}`
      : `/admin/fees/${encodeURIComponent(scope)}`,
    { method: "DELETE" },
  );

/** Removes a rule; the next rule down applies to later sales. */
export function useRemoveFeeRule() {
  return useMutation({ mutationFn: removeFeeRule, onSuccess: useInvalidateFees() });
}
