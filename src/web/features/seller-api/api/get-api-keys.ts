import { queryOptions, useQuery } from "@tanstack/react-query";
import { call } from "#web/lib/api";

/** The seller's API keys, live and revoked: never a secret, which only making or rolling a key answers. */
export const getApiKeys = () => call("GET /seller-api/keys");

/** Every query key of this feature starts with it, so a change refreshes them all. */
export const sellerApiKey = ["seller-api"] as const;

export const apiKeysQueryOptions = () =>
  queryOptions({
    queryKey: [...sellerApiKey, "keys"],
    queryFn: getApiKeys,
    // Each call the seller's systems make moves a key's "last used": it is read again whenever it opens.
    staleTime: 0,
  });

export function useApiKeys() {
  return useQuery(apiKeysQueryOptions());
}
