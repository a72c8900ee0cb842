import { useMutation, useQueryClient } from "@tanstack/react-query";
import { subscriptionReportsKey } from "#web/features/subscription-reports/api/get-seller-subscriptions";
import { call } from "#web/lib/api";

/** Ends a subscription now, as an admin: its unpaid renewal cancelled, its licences revoked. */
export const cancelSubscriptionNow = (id: string) =>
  call("POST /admin/subscriptions/:id/cancel", { params: { id } });

export function useCancelSubscriptionNow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelSubscriptionNow,
    // Awaited, so the row leaves the queue as the toast says it ended.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: subscriptionReportsKey }),
  });
}
