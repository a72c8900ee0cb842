import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { call } from "#web/lib/api";

/** The prefix of every moderation queue page's key, for reloading them after a decision. */
export const moderationQueueKey = ["admin", "moderation"] as const;

export const moderationQueueQueryOptions = (page: number) =>
  queryOptions({
    queryKey: [...moderationQueueKey, { page }],
    queryFn: () => call("GET /admin/moderation", { query: { page } }),
    placeholderData: keepPreviousData,
  });

/** Listings waiting for an admin's review, oldest first. */
export function useModerationQueue(page: number) {
  return useQuery(moderationQueueQueryOptions(page));
}
