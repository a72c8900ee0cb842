import { queryOptions, useQuery } from "@tanstack/react-query";
import type { LicenseList } from "#domain/license-schemas";
import { api } from "#web/lib/api";

export const getLicenses = () => api<LicenseList>("/licenses");

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
