import { queryOptions, useQuery } from "@tanstack/react-query";
import { call } from "#web/lib/api";

export const getPaymentsConfig = () => call("GET /payments/config");

/** Which methods run in test mode; it changes only with a new deployment. */
export const paymentsConfigQueryOptions = () =>
  queryOptions({ queryKey: ["payments", "config"], queryFn: getPaymentsConfig, staleTime: 10 * 60_000 });

export function usePaymentsConfig() {
  return useQuery(paymentsConfigQueryOptions());
}
