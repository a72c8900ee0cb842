import { queryOptions, useQuery } from "@tanstack/react-query";
import { call } from "#web/lib/api";

export const marketplaceStatsQueryOptions = () =>
  queryOptions({
    queryKey: ["marketplace-stats"],
    queryFn: () => call("GET /marketplace-stats"),
    staleTime: 5 * 60_000,
  });

/** The marketplace's figures as the database counts them (`GET /api/marketplace-stats`). */
export function useMarketplaceStats() {
  return useQuery(marketplaceStatsQueryOptions());
}
