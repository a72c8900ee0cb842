import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { call } from "#web/lib/api";

/** The CSV export is a plain download: the browser sends the session cookie with the link. */
export const subscribersCsvUrl = "/api/admin/inbox/subscribers.csv";

export const subscribersQueryOptions = (page: number) =>
  queryOptions({
    queryKey: ["inbox", "subscribers", page],
    queryFn: () => call("GET /admin/inbox/subscribers", { query: { page } }),
    placeholderData: keepPreviousData,
  });

export function useSubscribers(page: number) {
  return useQuery(subscribersQueryOptions(page));
}
