import { queryOptions, useMutation, useQuery } from "@tanstack/react-query";
import type { TestPaymentChoice } from "#domain/payments";
import { call } from "#web/lib/api";

export const getTestPaymentSession = (ref: string) =>
  call("GET /payments/test/sessions/:ref", { params: { ref } });

export const testPaymentSessionQueryOptions = (ref: string) =>
  queryOptions({ queryKey: ["payments", "test-session", ref], queryFn: () => getTestPaymentSession(ref) });

export function useTestPaymentSession(ref: string) {
  return useQuery(testPaymentSessionQueryOptions(ref));
}

/** The buyer's choice on the test page; answers where the test provider sends the browser. */
export const chooseTestPayment = (ref: string, choice: TestPaymentChoice) =>
  call("POST /payments/test/sessions/:ref/choice", { params: { ref }, body: { choice } });

export function useChooseTestPayment(ref: string) {
  return useMutation({ mutationFn: (choice: TestPaymentChoice) => chooseTestPayment(ref, choice) });
}
