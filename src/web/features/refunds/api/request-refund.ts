import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { RefundAnswer, RefundRequestInput } from "#domain/refunds";
import { api } from "#web/lib/api";

type Target = { orderId: string; itemId: string };

export const requestRefund = ({ orderId, itemId, reason }: Target & RefundRequestInput) =>
  api<RefundAnswer>(`/orders/${encodeURIComponent(orderId)}/items/${encodeURIComponent(itemId)}/refund`, {
    method: "POST",
    body: { reason },
  }).then((r) => r.refund);

/** The buyer asks for an item's refund; their orders reload to show the request. */
export function useRequestRefund() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: requestRefund,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["orders"] }),
  });
}
