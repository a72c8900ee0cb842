import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { call } from "#web/lib/api";

/** The prefix of every payout query's key, for reloading them all after a batch or a settlement. */
export const payoutsKey = ["admin", "payouts"] as const;

export const payoutPreviewQueryOptions = (minimum: number | undefined) =>
  queryOptions({
    queryKey: [...payoutsKey, "preview", { minimum }],
    queryFn: () => call("GET /admin/payouts/preview", { query: { minimum } }),
    placeholderData: keepPreviousData,
  });

/** Every available balance and whether a batch run now pays it; without a minimum, the server's. */
export function usePayoutPreview(minimum: number | undefined) {
  return useQuery(payoutPreviewQueryOptions(minimum));
}
