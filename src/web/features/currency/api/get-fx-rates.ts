import { queryOptions, useQuery } from "@tanstack/react-query";
import { call } from "#web/lib/api";

export const fxRatesQueryOptions = () =>
  queryOptions({
    queryKey: ["fx-rates"],
    queryFn: () => call("GET /fx-rates"),
    staleTime: 10 * 60_000,
  });

export function useFxRates() {
  return useQuery(fxRatesQueryOptions());
}
