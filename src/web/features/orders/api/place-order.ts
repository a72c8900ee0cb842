import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { PlaceOrderInput } from "#domain/checkout";
import { ordersQueryOptions } from "#web/features/orders/api/get-orders";
import { call } from "#web/lib/api";

/** Places the order, pending; the answer is the payment page to send the browser to. */
export const placeOrder = (input: PlaceOrderInput) => call("POST /orders", { body: input });

export function usePlaceOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: placeOrder,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ordersQueryOptions().queryKey }),
  });
}
