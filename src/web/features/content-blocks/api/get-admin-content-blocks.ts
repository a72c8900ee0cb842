import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { call } from "#web/lib/api";

/** The prefix of every admin content block list, for invalidating them all. */
export const adminContentBlocksKey = ["admin", "content-blocks"] as const;

export const adminContentBlocksQueryOptions = (search: string) =>
  queryOptions({
    queryKey: [...adminContentBlocksKey, { search }],
    queryFn: () => call("GET /admin/content-blocks", { query: { search } }).then((r) => r.items),
    placeholderData: keepPreviousData,
  });

/** Every block the site uses (with its default until saved) and any other saved block, by key. */
export function useAdminContentBlocks(search: string) {
  return useQuery(adminContentBlocksQueryOptions(search));
}
