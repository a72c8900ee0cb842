import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { SubscriptionChangeCommit } from "#domain/subscription-schemas";
import { subscriptionsKey } from "#web/features/subscriptions/api/get-subscriptions";
import { call, isApiError } from "#web/lib/api";

/**
 * Commits a change exactly as previewed (its plan, seats, `pricedAt` and `token`): applied, scheduled for
 * the period's end, or awaiting the payment of `change.orderId`. 409 `PREVIEW_STALE` when anything moved
 * since the preview.
 */
export const commitChange = ({ id, ...body }: SubscriptionChangeCommit & { id: string }) =>
  call("POST /subscriptions/:id/change", { params: { id }, body });

export function useCommitChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: commitChange,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: subscriptionsKey }),
    // A stale preview means the subscription moved on (a renewal, a payment, another change): the desk too.
    onError: (error) =>
      isApiError(error, "PREVIEW_STALE")
        ? queryClient.invalidateQueries({ queryKey: subscriptionsKey })
        : undefined,
  });
}
