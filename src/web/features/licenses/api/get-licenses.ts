import { queryOptions, useQuery } from "@tanstack/react-query";
import { call } from "#web/lib/api";

export const getLicenses = () => call("GET /licenses");

/** The buyer's license keys, newest first. */
export const licensesQueryOptions = () =>
  queryOptions({
    queryKey: ["licenses", "list"],
    queryFn: getLicenses,
    // Orders issue keys and refunds revoke them elsewhere; the view refetches whenever it opens.
    staleTime: 0,
  });

export function useLicenses() {
  return useQuery(licensesQueryOptions());
}
