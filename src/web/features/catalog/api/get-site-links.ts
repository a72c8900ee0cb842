import { queryOptions, useQuery } from "@tanstack/react-query";
import type { SiteLinks } from "#domain/site-links";
import { api } from "#web/lib/api";

export const siteLinksQueryOptions = () =>
  queryOptions({
    queryKey: ["site-links"],
    queryFn: () => api<SiteLinks>("/site-links"),
    staleTime: Number.POSITIVE_INFINITY,
  });

/** The operator's social accounts (`GET /api/site-links`): only those configured, none while loading. */
export function useSiteLinks() {
  return useQuery(siteLinksQueryOptions());
}
