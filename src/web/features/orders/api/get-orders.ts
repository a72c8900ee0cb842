import { queryOptions, useQuery } from "@tanstack/react-query";
import { call } from "#web/lib/api";

export const getOrders = () => call("GET /orders");

/** The caller's orders, newest first, with the dashboard's figures; the shell and the view share it. */
export const ordersQueryOptions = () =>
  queryOptions({
    queryKey: ["orders", "list"],
    queryFn: getOrders,
  });

export function useOrders() {
  return useQuery(ordersQueryOptions());
}
