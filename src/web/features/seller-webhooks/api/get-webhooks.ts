import { queryOptions, useQuery } from "@tanstack/react-query";
import { call } from "#web/lib/api";

/** The seller's webhook endpoints: never a secret, which only making or rotating answers. */
export const getWebhooks = () => call("GET /seller-webhooks/endpoints");

/** Every query key of this feature starts with it, so a change refreshes them all. */
export const sellerWebhooksKey = ["seller-webhooks"] as const;

export const webhooksQueryOptions = () =>
  queryOptions({
    queryKey: [...sellerWebhooksKey, "endpoints"],
    queryFn: getWebhooks,
    // Deliveries turn an endpoint off in the background: it is read again whenever it opens.
    staleTime: 0,
  });

export function useWebhooks() {
  return useQuery(webhooksQueryOptions());
}
