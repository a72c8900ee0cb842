import { useMutation, useQueryClient } from "@tanstack/react-query";
import { paymentMethodsKey } from "#web/features/payment-methods/api/get-payment-methods";
import { subscriptionsKey } from "#web/features/subscriptions/api/get-subscriptions";
import { call } from "#web/lib/api";

/** Bank transfer as a saved method (one per buyer): renewals on it are invoiced for payment by transfer. */
export const addBankTransfer = () => call("POST /payment-methods/bank-transfer").then((r) => r.method);

export function useAddBankTransfer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addBankTransfer,
    // It may become the default, which the subscriptions that follow the default then renew on.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: paymentMethodsKey }),
        queryClient.invalidateQueries({ queryKey: subscriptionsKey }),
      ]),
  });
}
