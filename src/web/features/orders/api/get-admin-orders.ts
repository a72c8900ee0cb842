import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { AdminOrderList, PaymentStatus } from "#domain/checkout";
import { api } from "#web/lib/api";

export const getAdminOrders = (page: number, status?: PaymentStatus) =>
  api<AdminOrderList>("/admin/orders", { query: { page, status } });

/** The prefix of every admin order page's key, for invalidating them all. */
export const adminOrdersKey = ["admin", "orders"] as const;

/** Every buyer's orders for admins, a page at a time, optionally one status only. */
export const adminOrdersQueryOptions = (page: number, status?: PaymentStatus) =>
  queryOptions({
    queryKey: [...adminOrdersKey, { page, status }],
    queryFn: () => getAdminOrders(page, status),
    placeholderData: keepPreviousData,
  });

export function useAdminOrders(page: number, status?: PaymentStatus) {
  return useQuery(adminOrdersQueryOptions(page, status));
}
