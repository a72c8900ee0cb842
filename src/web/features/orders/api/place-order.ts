import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { PlaceOrderInput } from "#domain/checkout";
import type { PaymentRedirect } from "#domain/payments";
import { ordersQueryOptions } from "#web/features/orders/api/get-orders";
import { api } from "#web/lib/api";

/** Places the order, pending; the answer is the payment page to send the browser to. */
export const placeOrder = (input: PlaceOrderInput) =>
  api<PaymentRedirect>("/orders", { method: "POST", body: input });

export function usePlaceOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: placeOrder,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ordersQueryOptions().queryKey }),
  });
}
