import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { sellerWebhooksKey } from "#web/features/seller-webhooks/api/get-webhooks";
import { call } from "#web/lib/api";

/** A page of the delivery log, newest first. */
export const getDeliveries = (page: number) => call("GET /seller-webhooks/deliveries", { query: { page } });

export const deliveriesQueryOptions = (page: number) =>
  queryOptions({
    queryKey: [...sellerWebhooksKey, "deliveries", page],
    queryFn: () => getDeliveries(page),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

export function useDeliveries(page: number) {
  return useQuery(deliveriesQueryOptions(page));
}
