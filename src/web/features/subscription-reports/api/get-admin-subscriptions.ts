import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { LiveSubscriptionStatus } from "#domain/subscription-report-schemas";
import {
  type ReportPages,
  subscriptionReportsKey,
} from "#web/features/subscription-reports/api/get-seller-subscriptions";
import { call } from "#web/lib/api";

/** What the admin's subscriptions page shows: a page of each list, a search, the live list's status. */
export type AdminSubscriptionsFilter = ReportPages & { q?: string; status?: LiveSubscriptionStatus };

export const getAdminSubscriptions = ({ page, duePage, q, status }: AdminSubscriptionsFilter) =>
  call("GET /admin/subscriptions", { query: { page, duePage, q: q || undefined, status } });

/** The platform's subscription figures, the dunning queue and the live subscriptions. */
export const adminSubscriptionsQueryOptions = (filter: AdminSubscriptionsFilter) =>
  queryOptions({
    queryKey: [...subscriptionReportsKey, "admin", filter],
    queryFn: () => getAdminSubscriptions(filter),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

export function useAdminSubscriptions(filter: AdminSubscriptionsFilter) {
  return useQuery(adminSubscriptionsQueryOptions(filter));
}
