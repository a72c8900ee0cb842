import { useMutation, useQueryClient } from "@tanstack/react-query";
import { paymentMethodsQueryOptions } from "#web/features/payment-methods/api/get-payment-methods";
import { subscriptionsKey } from "#web/features/subscriptions/api/get-subscriptions";
import { call } from "#web/lib/api";

/** Removes a saved method: its subscriptions renew on the default. Answers the list as it now is. */
export const removePaymentMethod = (id: string) => call("DELETE /payment-methods/:id", { params: { id } });

export function useRemovePaymentMethod() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removePaymentMethod,
    onSuccess: (list) => {
      queryClient.setQueryData(paymentMethodsQueryOptions().queryKey, list);
      return queryClient.invalidateQueries({ queryKey: subscriptionsKey });
    },
  });
}
