import { useMutation, useQueryClient } from "@tanstack/react-query";
import { subscriptionsKey } from "#web/features/subscriptions/api/get-subscriptions";
import { call } from "#web/lib/api";

/**
 * Starts an ended subscription again in one step: a new order on the same plan and seats, charged to the
 * saved method when there is one, else paid on its payment page. Answers where the browser goes.
 * 409 `SUBSCRIPTION_LIVE` when it has not ended; `PLAN_NOT_FOUND`, `PRODUCT_UNAVAILABLE` when it is no
 * longer sold.
 */
export const restartSubscription = (id: string) =>
  call("POST /subscriptions/:id/restart", { params: { id } });

export function useRestartSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: restartSubscription,
    // A refusal says the desk is out of date (it is live again, its plan gone): what it shows is refreshed.
    onError: () => queryClient.invalidateQueries({ queryKey: subscriptionsKey }),
  });
}
