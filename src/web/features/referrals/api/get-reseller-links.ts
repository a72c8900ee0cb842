import { queryOptions, useQuery } from "@tanstack/react-query";
import type { ResellerLinks } from "#domain/referrals";
import { api } from "#web/lib/api";

export const getResellerLinks = () => api<ResellerLinks>("/reseller/links");

/** The reseller's links with clicks, orders and commission; settled on the server at every read. */
export const resellerLinksQueryOptions = () =>
  queryOptions({ queryKey: ["reseller", "links"], queryFn: getResellerLinks });

export function useResellerLinks() {
  return useQuery(resellerLinksQueryOptions());
}
