import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { call } from "#web/lib/api";

export const getOrderPayment = (orderId: string) =>
  call("GET /orders/:id/payment", { params: { id: orderId } });

/** The order's latest payment attempt; under ["orders"] so order changes refresh it too. */
export const orderPaymentQueryOptions = (orderId: string) =>
  queryOptions({ queryKey: ["orders", "payment", orderId], queryFn: () => getOrderPayment(orderId) });

export function useOrderPayment(orderId: string, enabled: boolean) {
  return useQuery({ ...orderPaymentQueryOptions(orderId), enabled });
}

/** Back from the provider: asks it for the outcome (with the query string it added) and applies it. */
export const completePayment = (orderId: string, query: Record<string, string>) =>
  call("POST /orders/:id/payment/complete", { params: { id: orderId }, body: { query } });

export function useCompletePayment(orderId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (query: Record<string, string>) => completePayment(orderId, query),
    onSuccess: (answer) => {
      queryClient.setQueryData(orderPaymentQueryOptions(orderId).queryKey, answer);
      return queryClient.invalidateQueries({ queryKey: ["orders"] });
    },
  });
}

/** Pays a failed order again: a new attempt, answered with its payment page. */
export const retryPayment = (orderId: string) =>
  call("POST /orders/:id/payment", { params: { id: orderId } });

export function useRetryPayment(orderId: string) {
  return useMutation({ mutationFn: () => retryPayment(orderId) });
}

/** Cancels an order that awaits payment; answers its payment as it now is. */
export const cancelOrder = (orderId: string) => call("POST /orders/:id/cancel", { params: { id: orderId } });

export function useCancelOrder(orderId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => cancelOrder(orderId),
    onSuccess: (answer) => {
      queryClient.setQueryData(orderPaymentQueryOptions(orderId).queryKey, answer);
      return queryClient.invalidateQueries({ queryKey: ["orders"] });
    },
  });
}
