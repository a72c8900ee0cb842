import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { sellerApiKey } from "#web/features/seller-api/api/get-api-keys";
import { call } from "#web/lib/api";

/** A page of the access log: the calls made with the seller's keys, newest first. */
export const getApiCalls = (page: number) => call("GET /seller-api/calls", { query: { page } });

export const apiCallsQueryOptions = (page: number) =>
  queryOptions({
    queryKey: [...sellerApiKey, "calls", page],
    queryFn: () => getApiCalls(page),
    placeholderData: keepPreviousData,
    // The seller's own systems add calls from elsewhere: it is read again whenever it opens.
    staleTime: 0,
  });

export function useApiCalls(page: number) {
  return useQuery(apiCallsQueryOptions(page));
}
