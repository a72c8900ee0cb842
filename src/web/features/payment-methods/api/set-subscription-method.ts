import { useMutation, useQueryClient } from "@tanstack/react-query";
import { paymentMethodsKey } from "#web/features/payment-methods/api/get-payment-methods";
import { subscriptionsKey } from "#web/features/subscriptions/api/get-subscriptions";
import { call } from "#web/lib/api";

/** Chooses the saved method a subscription renews on; `null` follows the buyer's default. */
export const setSubscriptionMethod = ({
  id,
  paymentMethodId,
}: {
  id: string;
  paymentMethodId: string | null;
}) =>
  call("PUT /subscriptions/:id/payment-method", { params: { id }, body: { paymentMethodId } }).then(
    (r) => r.subscription,
  );

export function useSetSubscriptionMethod() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setSubscriptionMethod,
    // The desk shows the new method; the wallet counts the subscriptions each method renews.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: subscriptionsKey }),
        queryClient.invalidateQueries({ queryKey: paymentMethodsKey }),
      ]),
  });
}
