import { useMutation, useQueryClient } from "@tanstack/react-query";
import { paymentMethodsQueryOptions } from "#web/features/payment-methods/api/get-payment-methods";
import { subscriptionsKey } from "#web/features/subscriptions/api/get-subscriptions";
import { call } from "#web/lib/api";

/** Makes a saved method the default for renewals; answers the list as it now is. */
export const makeDefaultMethod = (id: string) =>
  call("POST /payment-methods/:id/default", { params: { id } });

export function useMakeDefaultMethod() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: makeDefaultMethod,
    onSuccess: (list) => {
      queryClient.setQueryData(paymentMethodsQueryOptions().queryKey, list);
      // The subscriptions that follow the default now renew on another method.
      return queryClient.invalidateQueries({ queryKey: subscriptionsKey });
    },
  });
}
