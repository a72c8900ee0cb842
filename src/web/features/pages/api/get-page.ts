import { queryOptions, useQuery } from "@tanstack/react-query";
import { call } from "#web/lib/api";

/** The prefix of every public page's key, so admins' edits can refresh them. */
export const publicPagesKey = ["pages"] as const;

export const pageQueryOptions = (slug: string) =>
  queryOptions({
    queryKey: [...publicPagesKey, slug],
    queryFn: () => call("GET /pages/:slug", { params: { slug } }).then((r) => r.page),
  });

/** An active content page by slug; a draft or missing page fails with a 404 ApiError. */
export function usePage(slug: string) {
  return useQuery(pageQueryOptions(slug));
}
