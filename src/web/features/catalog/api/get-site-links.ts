import { queryOptions, useQuery } from "@tanstack/react-query";
import { call } from "#web/lib/api";

export const siteLinksQueryOptions = () =>
  queryOptions({
    queryKey: ["site-links"],
    queryFn: () => call("GET /site-links"),
    staleTime: Number.POSITIVE_INFINITY,
  });

/** The operator's social accounts (`GET /api/site-links`): only those configured, none while loading. */
export function useSiteLinks() {
  return useQuery(siteLinksQueryOptions());
}
