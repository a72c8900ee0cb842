import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { OrderAnswer, PlaceOrderInput } from "#domain/checkout";
import { ordersQueryOptions } from "#web/features/orders/api/get-orders";
import { api } from "#web/lib/api";

export const placeOrder = (input: PlaceOrderInput) =>
  api<OrderAnswer>("/orders", { method: "POST", body: input }).then((r) => r.order);

export function usePlaceOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: placeOrder,
    // A confirmed order may deliver licence keys.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ordersQueryOptions().queryKey }),
        queryClient.invalidateQueries({ queryKey: ["licenses"] }),
      ]),
  });
}
