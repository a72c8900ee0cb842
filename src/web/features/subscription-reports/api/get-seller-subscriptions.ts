import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { call } from "#web/lib/api";

/** Every query key of this feature starts with it, so an admin's action refreshes them all. */
export const subscriptionReportsKey = ["subscription-reports"] as const;

/** Which page of each list: `page` the live subscriptions, `duePage` the past-due renewals. */
export type ReportPages = { page: number; duePage: number };

export const getSellerSubscriptions = (pages: ReportPages) =>
  call("GET /seller/subscriptions", { query: pages });

/** A seller's subscription figures and lists (the dashboard's Recurring revenue view). */
export const sellerSubscriptionsQueryOptions = (pages: ReportPages) =>
  queryOptions({
    queryKey: [...subscriptionReportsKey, "seller", pages],
    queryFn: () => getSellerSubscriptions(pages),
    placeholderData: keepPreviousData,
    // Sales, renewals and the renewal job change it elsewhere: it refetches whenever it opens.
    staleTime: 0,
  });

export function useSellerSubscriptions(pages: ReportPages) {
  return useQuery(sellerSubscriptionsQueryOptions(pages));
}
