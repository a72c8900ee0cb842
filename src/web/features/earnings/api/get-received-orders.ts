import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { earningsKey } from "#web/features/earnings/api/get-earnings";
import { call } from "#web/lib/api";

export const getReceivedOrders = (page: number) => call("GET /seller/orders", { query: { page } });

/** One page of the orders the seller received; asked for only for sellers (anyone else gets 403). */
export function useReceivedOrders(page: number, enabled = true) {
  return useQuery(
    queryOptions({
      queryKey: [...earningsKey, "received-orders", { page }],
      queryFn: () => getReceivedOrders(page),
      placeholderData: keepPreviousData,
      enabled,
    }),
  );
}
