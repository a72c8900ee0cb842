import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { PayoutState, RefundStatus } from "#domain/refunds";
import { call } from "#web/lib/api";

/** The prefix of every refund list's key, for invalidating them all after a decision. */
export const refundsKey = ["refunds"] as const;

/** What a list shows: one refund status, or (for the platform) the refunds whose payout is in one state. */
export type RefundFilter = { status?: RefundStatus; payout?: PayoutState };

/** Whose requests a list shows: the buyer's own, the seller's sold items, or (the platform) every one. */
export type RefundScope = "buyer" | "seller" | "admin";
const listOf = {
  buyer: "GET /refunds/mine",
  seller: "GET /seller/refunds",
  admin: "GET /admin/refunds",
} as const;

/** Requests the caller made (buyers), for their own sold items (sellers) or, for the platform, every request. */
export const refundsQueryOptions = (scope: RefundScope, page: number, filter: RefundFilter = {}) =>
  queryOptions({
    queryKey: [...refundsKey, scope, { page, ...filter }],
    queryFn: () =>
      call(listOf[scope], {
        query: { page, status: filter.status, payout: scope === "admin" ? filter.payout : undefined },
      }),
    placeholderData: keepPreviousData,
  });

export function useRefunds(scope: RefundScope, page: number, filter: RefundFilter = {}) {
  return useQuery(refundsQueryOptions(scope, page, filter));
}
