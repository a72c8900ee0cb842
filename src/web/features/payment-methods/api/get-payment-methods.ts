import { queryOptions, useQuery } from "@tanstack/react-query";
import { call } from "#web/lib/api";

/** The buyer's saved payment methods, the default first, and whether setups run in test mode. */
export const getPaymentMethods = () => call("GET /payment-methods");

/** Every query key of this feature starts with it, so a change refreshes them all. */
export const paymentMethodsKey = ["payment-methods"] as const;

export const paymentMethodsQueryOptions = () =>
  queryOptions({ queryKey: [...paymentMethodsKey, "list"], queryFn: getPaymentMethods });

export function usePaymentMethods({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...paymentMethodsQueryOptions(), enabled });
}
