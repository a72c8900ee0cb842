import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { ResellerLinks } from "#domain/referrals";
import { api } from "#web/lib/api";

export type ResellerLinksFilter = { search: string; page: number };

export const getResellerLinks = ({ search, page }: ResellerLinksFilter) => {
  const query = new URLSearchParams();
  if (search) query.set("search", search);
  if (page > 1) query.set("page", String(page));
  const text = query.toString();
  return api<ResellerLinks>(`/reseller/links${text ? `?${text}` : ""}`);
};

/** A page of the reseller's links with clicks, orders and commission; settled on the server at every read. */
export const resellerLinksQueryOptions = (filter: ResellerLinksFilter = { search: "", page: 1 }) =>
  queryOptions({
    queryKey: ["reseller", "links", filter],
    queryFn: () => getResellerLinks(filter),
    // The page on screen stays while the next one (or a search's) loads.
    placeholderData: keepPreviousData,
  });

export function useResellerLinks(filter?: ResellerLinksFilter) {
  return useQuery(resellerLinksQueryOptions(filter));
}
