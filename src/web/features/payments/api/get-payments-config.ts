import { queryOptions, useQuery } from "@tanstack/react-query";
import type { PaymentsConfig } from "#domain/payments";
import { api } from "#web/lib/api";

export const getPaymentsConfig = () => api<PaymentsConfig>("/payments/config");

/** Which methods run in test mode; it changes only with a new deployment. */
export const paymentsConfigQueryOptions = () =>
  queryOptions({ queryKey: ["payments", "config"], queryFn: getPaymentsConfig, staleTime: 10 * 60_000 });

export function usePaymentsConfig() {
  return useQuery(paymentsConfigQueryOptions());
}
