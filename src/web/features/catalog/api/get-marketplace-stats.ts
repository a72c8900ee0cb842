import { queryOptions, useQuery } from "@tanstack/react-query";
import type { MarketplaceStats } from "#domain/catalog-schemas";
import { api } from "#web/lib/api";

export const marketplaceStatsQueryOptions = () =>
  queryOptions({
    queryKey: ["marketplace-stats"],
    queryFn: () => api<MarketplaceStats>("/marketplace-stats"),
    staleTime: 5 * 60_000,
  });

/** The marketplace's figures as the database counts them (`GET /api/marketplace-stats`). */
export function useMarketplaceStats() {
  return useQuery(marketplaceStatsQueryOptions());
}
