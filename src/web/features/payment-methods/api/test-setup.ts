import { queryOptions, useMutation, useQuery } from "@tanstack/react-query";
import type { TestSetupChoice } from "#domain/payment-methods";
import { call } from "#web/lib/api";

export const getTestSetupSession = (ref: string) =>
  call("GET /payment-methods/test/setups/:ref", { params: { ref } });

export const testSetupSessionQueryOptions = (ref: string) =>
  queryOptions({
    queryKey: ["payment-methods", "test-setup", ref],
    queryFn: () => getTestSetupSession(ref),
  });

/** The test provider's setup, as its hosted page shows it (test mode only). */
export function useTestSetupSession(ref: string) {
  return useQuery(testSetupSessionQueryOptions(ref));
}

/** The buyer's choice on the test setup page; answers where the test provider sends the browser. */
export const chooseTestSetup = (ref: string, choice: TestSetupChoice) =>
  call("POST /payment-methods/test/setups/:ref/choice", { params: { ref }, body: choice }).then(
    (r) => r.redirectUrl,
  );

export function useChooseTestSetup(ref: string) {
  return useMutation({ mutationFn: (choice: TestSetupChoice) => chooseTestSetup(ref, choice) });
}
