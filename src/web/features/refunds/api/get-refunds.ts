import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { RefundList, RefundStatus } from "#domain/refunds";
import { api } from "#web/lib/api";

/** The prefix of every refund list's key, for invalidating them all after a decision. */
export const refundsKey = ["refunds"] as const;

/** Requests for the caller's own sold items (sellers) or, for the platform, every request. */
export const refundsQueryOptions = (scope: "seller" | "admin", page: number, status?: RefundStatus) =>
  queryOptions({
    queryKey: [...refundsKey, scope, { page, status }],
    queryFn: () =>
      api<RefundList>(scope === "seller" ? "/seller/refunds" : "/admin/refunds", {
        query: { page, status },
      }),
    placeholderData: keepPreviousData,
  });

export function useRefunds(scope: "seller" | "admin", page: number, status?: RefundStatus) {
  return useQuery(refundsQueryOptions(scope, page, status));
}
