import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { FeeRuleInput, FeeScope } from "#domain/fees";
import { auditLogKey } from "#web/features/audit/api/get-audit-log";
import { call } from "#web/lib/api";

export const feeRulesQueryOptions = () =>
  queryOptions({ queryKey: ["admin", "fees"], queryFn: () => call("GET /admin/fees") });

/** The platform fee rules, for super admins. */
export function useFeeRules() {
  return useQuery(feeRulesQueryOptions());
}

export const myFeesQueryOptions = () =>
  queryOptions({ queryKey: ["fees", "mine"], queryFn: () => call("GET /fees/mine") });

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

export const saveFeeRule = (body: FeeRuleInput) => call("PUT /admin/fees", { body }).then((r) => r.rule);

/** Sets a rule's percentage; the rules and the audit log reload. */
export function useSaveFeeRule() {
  return useMutation({ mutationFn: saveFeeRule, onSuccess: useInvalidateFees() });
}

export const removeFeeRule = ({ scope, subject }: { scope: FeeScope; subject: string }) =>
  call("DELETE /admin/fees/:scope/:subject?", { params: { scope, subject } });

/** Removes a rule; the next rule down applies to later sales. */
export function useRemoveFeeRule() {
  return useMutation({ mutationFn: removeFeeRule, onSuccess: useInvalidateFees() });
}
