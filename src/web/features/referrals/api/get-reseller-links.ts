import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { call } from "#web/lib/api";

export type ResellerLinksFilter = { search: string; page: number };

export const getResellerLinks = ({ search, page }: ResellerLinksFilter) =>
  call("GET /reseller/links", { query: { search, page: page > 1 ? page : undefined } });

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
