import { useMutation, useQueryClient } from "@tanstack/react-query";
import { subscriptionsKey } from "#web/features/subscriptions/api/get-subscriptions";
import { call } from "#web/lib/api";

/** Stops a subscription renewing: it stays usable until the end of the period paid for. */
export const cancelSubscription = (id: string) =>
  call("POST /subscriptions/:id/cancel", { params: { id } }).then((r) => r.subscription);

export function useCancelSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelSubscription,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: subscriptionsKey }),
  });
}
