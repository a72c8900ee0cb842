import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { BankAccountInput, StartOnboardingInput, TestOnboardingChoice } from "#domain/payouts";
import { call } from "#web/lib/api";

export const payoutAccountKey = ["payouts", "account"] as const;

export const payoutAccountQueryOptions = () =>
  queryOptions({
    queryKey: payoutAccountKey,
    queryFn: () => call("GET /payouts/account").then((r) => r.account),
  });

/** The seller's or reseller's payout method, masked. */
export function usePayoutAccount() {
  return useQuery(payoutAccountQueryOptions());
}

export function useSaveBankAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (account: BankAccountInput) =>
      call("PUT /payouts/account/bank", { body: account }).then((r) => r.account),
    onSuccess: (account) => queryClient.setQueryData(payoutAccountKey, account),
  });
}

/** Answers Stripe's onboarding page (or test mode's) for the browser to go to. */
export function useStartOnboarding() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: StartOnboardingInput) =>
      call("POST /payouts/account/stripe", { body: input }).then((r) => r.url),
    onSettled: () => queryClient.invalidateQueries({ queryKey: payoutAccountKey }),
  });
}

export function useRemovePayoutAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call("DELETE /payouts/account"),
    onSuccess: () => queryClient.setQueryData(payoutAccountKey, null),
  });
}

export function useTestConnectAccount(accountId: string) {
  return useQuery({
    queryKey: ["payouts", "test-connect", accountId],
    queryFn: () => call("GET /payouts/test/connect/:accountId", { params: { accountId } }),
  });
}

export function useChooseTestOnboarding(accountId: string) {
  return useMutation({
    mutationFn: (choice: TestOnboardingChoice) =>
      call("POST /payouts/test/connect/:accountId/choice", { params: { accountId }, body: { choice } }),
  });
}
