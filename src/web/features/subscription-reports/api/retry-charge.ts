import { useMutation, useQueryClient } from "@tanstack/react-query";
import { subscriptionReportsKey } from "#web/features/subscription-reports/api/get-seller-subscriptions";
import { call } from "#web/lib/api";

/** Charges a past-due renewal's saved card or PayPal account again, now. */
export const retryCharge = (id: string) => call("POST /admin/subscriptions/:id/retry", { params: { id } });

/** A paid retry takes the renewal out of the queue: the report is read again. */
export function useRetryCharge() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: retryCharge,
    onSuccess: (answer) =>
      answer.charged === "paid"
        ? queryClient.invalidateQueries({ queryKey: subscriptionReportsKey })
        : undefined,
  });
}
