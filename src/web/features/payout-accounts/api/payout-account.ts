import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  BankAccountInput,
  OnboardingAnswer,
  PayoutAccountAnswer,
  StartOnboardingInput,
  TestConnectAccount,
  TestOnboardingChoice,
} from "#domain/payouts";
import { api } from "#web/lib/api";

export const payoutAccountKey = ["payouts", "account"] as const;

export const payoutAccountQueryOptions = () =>
  queryOptions({
    queryKey: payoutAccountKey,
    queryFn: () => api<PayoutAccountAnswer>("/payouts/account").then((r) => r.account),
  });

/** The seller's or reseller's payout method, masked. */
export function usePayoutAccount() {
  return useQuery(payoutAccountQueryOptions());
}

export function useSaveBankAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (account: BankAccountInput) =>
      api<PayoutAccountAnswer>("/payouts/account/bank", { method: "PUT", body: account }).then(
        (r) => r.account,
      ),
    onSuccess: (account) => queryClient.setQueryData(payoutAccountKey, account),
  });
}

/** Answers Stripe's onboarding page (or test mode's) for the browser to go to. */
export function useStartOnboarding() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: StartOnboardingInput) =>
      api<OnboardingAnswer>("/payouts/account/stripe", { method: "POST", body: input }).then((r) => r.url),
    onSettled: () => queryClient.invalidateQueries({ queryKey: payoutAccountKey }),
  });
}

export function useRemovePayoutAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api<null>("/payouts/account", { method: "DELETE" }),
    onSuccess: () => queryClient.setQueryData(payoutAccountKey, null),
  });
}

const testBase = (accountId: string) => `/payouts/test/connect/${encodeURIComponent(accountId)}`;

export function useTestConnectAccount(accountId: string) {
  return useQuery({
    queryKey: ["payouts", "test-connect", accountId],
    queryFn: () => api<TestConnectAccount>(testBase(accountId)),
  });
}

export function useChooseTestOnboarding(accountId: string) {
  return useMutation({
    mutationFn: (choice: TestOnboardingChoice) =>
      api<{ redirectUrl: string }>(`${testBase(accountId)}/choice`, { method: "POST", body: { choice } }),
  });
}
