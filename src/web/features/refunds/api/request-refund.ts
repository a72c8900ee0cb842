import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { RefundRequestInput } from "#domain/refunds";
import { call } from "#web/lib/api";

type Target = { orderId: string; itemId: string };

export const requestRefund = ({ orderId, itemId, reason }: Target & RefundRequestInput) =>
  call("POST /orders/:orderId/items/:itemId/refund", { params: { orderId, itemId }, body: { reason } }).then(
    (r) => r.refund,
  );

/** The buyer asks for an item's refund; their orders reload to show the request. */
export function useRequestRefund() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: requestRefund,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["orders"] }),
  });
}
