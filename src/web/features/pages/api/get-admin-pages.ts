import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { call } from "#web/lib/api";

/** The prefix of every admin page query (lists and single pages), for invalidating them all. */
export const adminPagesKey = ["admin", "pages"] as const;

export const adminPagesQueryOptions = (search: string) =>
  queryOptions({
    queryKey: [...adminPagesKey, "list", { search }],
    queryFn: () => call("GET /admin/pages", { query: { search } }).then((r) => r.items),
    placeholderData: keepPreviousData,
  });

/** Every page, drafts included, most recently updated first; `search` matches title or slug. */
export function useAdminPages(search: string) {
  return useQuery(adminPagesQueryOptions(search));
}
