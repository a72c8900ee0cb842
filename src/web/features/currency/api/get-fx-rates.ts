import { queryOptions, useQuery } from "@tanstack/react-query";
import type { FxRate } from "#domain/money";
import { api } from "#web/lib/api";

export const fxRatesQueryOptions = () =>
  queryOptions({
    queryKey: ["fx-rates"],
    queryFn: () => api<FxRate[]>("/fx-rates"),
    staleTime: 10 * 60_000,
  });

export function useFxRates() {
  return useQuery(fxRatesQueryOptions());
}
