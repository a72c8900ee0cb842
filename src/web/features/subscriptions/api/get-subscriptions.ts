import { queryOptions, useQuery } from "@tanstack/react-query";
import { call } from "#web/lib/api";

export const getSubscriptions = () => call("GET /subscriptions");

/** Where the browser downloads the renewal calendar (plain links: the session cookie goes along). */
export const calendarIcsUrl = "/api/subscriptions/calendar.ics";
export const calendarCsvUrl = "/api/subscriptions/calendar.csv";

/** How often the desk refetches while it shows a metered subscription's use. */
export const USAGE_REFRESH_MS = 30_000;

/** Every query key of this feature starts with it, so a change refreshes them all. */
export const subscriptionsKey = ["subscriptions"] as const;

/** The buyer's subscriptions, as the renewal desk lists them. */
export const subscriptionsQueryOptions = () =>
  queryOptions({
    queryKey: [...subscriptionsKey, "list"],
    queryFn: getSubscriptions,
    // Checkout starts subscriptions and renewals are made and paid elsewhere; the desk refetches whenever it opens.
    staleTime: 0,
    // A metered subscription's use grows as its seller reports it: refetched every 30 s while the desk
    // is visible (not in a background tab), and not at all without one.
    refetchInterval: (query) =>
      query.state.data?.items.some((s) => s.usage !== null && s.status !== "ended")
        ? USAGE_REFRESH_MS
        : false,
  });

export function useSubscriptions() {
  return useQuery(subscriptionsQueryOptions());
}
