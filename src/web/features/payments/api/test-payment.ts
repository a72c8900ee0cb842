import { queryOptions, useMutation, useQuery } from "@tanstack/react-query";
import type { TestPaymentChoice, TestPaymentSession } from "#domain/payments";
import { api } from "#web/lib/api";

const base = (ref: string) => `/payments/test/sessions/${encodeURIComponent(ref)}`;

export const getTestPaymentSession = (ref: string) => api<TestPaymentSession>(base(ref));

export const testPaymentSessionQueryOptions = (ref: string) =>
  queryOptions({ queryKey: ["payments", "test-session", ref], queryFn: () => getTestPaymentSession(ref) });

export function useTestPaymentSession(ref: string) {
  return useQuery(testPaymentSessionQueryOptions(ref));
}

/** The buyer's choice on the test page; answers where the test provider sends the browser. */
export const chooseTestPayment = (ref: string, choice: TestPaymentChoice) =>
  api<{ redirectUrl: string }>(`${base(ref)}/choice`, { method: "POST", body: { choice } });

export function useChooseTestPayment(ref: string) {
  return useMutation({ mutationFn: (choice: TestPaymentChoice) => chooseTestPayment(ref, choice) });
}
