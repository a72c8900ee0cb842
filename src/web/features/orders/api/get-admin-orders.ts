import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { PaymentStatus } from "#domain/checkout";
import { call } from "#web/lib/api";

/** What the admin order list shows: a page, and optionally one status and a search. */
export type AdminOrdersFilter = { page: number; status?: PaymentStatus; q?: string };

export const getAdminOrders = ({ page, status, q }: AdminOrdersFilter) =>
  call("GET /admin/orders", { query: { page, status, q: q || undefined } });

/** The prefix of every admin order page's key, for invalidating them all. */
export const adminOrdersKey = ["admin", "orders"] as const;

/** Every buyer's orders for admins, a page at a time, optionally one status or a search. */
export const adminOrdersQueryOptions = (filter: AdminOrdersFilter) =>
  queryOptions({
    queryKey: [...adminOrdersKey, filter],
    queryFn: () => getAdminOrders(filter),
    placeholderData: keepPreviousData,
  });

export function useAdminOrders(filter: AdminOrdersFilter) {
  return useQuery(adminOrdersQueryOptions(filter));
}
