import { queryOptions, useQuery } from "@tanstack/react-query";
import type { SubscriptionChangeInput } from "#domain/subscription-schemas";
import { type CallOptions, call } from "#web/lib/api";

/** What changing a subscription to `input` (a plan and seats) would cost now; nothing changes. */
export const previewChange = (id: string, input: SubscriptionChangeInput, options?: CallOptions) =>
  call("POST /subscriptions/:id/change/preview", { params: { id }, body: input }, options);

/**
 * Every preview's key starts with it. Not under the subscriptions' key: a commit refreshes the desk, not
 * the preview it was made from (whose dialog is closing).
 */
export const changePreviewKey = ["subscription-changes", "preview"] as const;

/**
 * The price of one change, as the dialog shows it before the buyer confirms. A preview is valid for 15
 * minutes and commits only as it was priced: it is never kept for another opening of the dialog, and not
 * refetched behind the buyer's back while they read it (a stale one is refetched when its commit says so).
 */
export const changePreviewQueryOptions = (id: string, input: SubscriptionChangeInput) =>
  queryOptions({
    queryKey: [...changePreviewKey, id, input.planId, input.seats],
    queryFn: ({ signal }) => previewChange(id, input, { signal }),
    gcTime: 0,
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  });

/** The preview of `input`, or none while there is nothing to price (`null`). */
export function useChangePreview(id: string, input: SubscriptionChangeInput | null) {
  return useQuery({
    ...changePreviewQueryOptions(id, input ?? { planId: "", seats: 0 }),
    enabled: input !== null,
  });
}
