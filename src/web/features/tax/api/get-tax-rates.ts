import { queryOptions, useQuery } from "@tanstack/react-query";
import { call } from "#web/lib/api";

/** The tax rates in force and the operator's TRN: the checkout's summary and the invoice read them. */
export const taxFactsQueryOptions = () =>
  queryOptions({
    queryKey: ["tax-rates"],
    queryFn: () => call("GET /tax/rates"),
    staleTime: 5 * 60_000,
  });

export function useTaxFacts() {
  return useQuery(taxFactsQueryOptions());
}
