import { queryOptions, useQuery } from "@tanstack/react-query";
import { call } from "#web/lib/api";

export const getBankTransfer = (orderId: string) =>
  call("GET /orders/:id/bank-transfer", { params: { id: orderId } });

/** How to pay a bank-transfer order and how much has arrived; under ["orders"] so order changes refresh it. */
export const bankTransferQueryOptions = (orderId: string) =>
  queryOptions({
    queryKey: ["orders", "bank-transfer", orderId],
    queryFn: () => getBankTransfer(orderId),
  });

/** `pollMs`: ask again at that interval while the order awaits its money (an admin records it). */
export function useBankTransfer(orderId: string, options: { enabled?: boolean; pollMs?: number } = {}) {
  const { enabled = true, pollMs } = options;
  return useQuery({
    ...bankTransferQueryOptions(orderId),
    enabled,
    refetchInterval: (query) => (pollMs && query.state.data?.paymentStatus === "processing" ? pollMs : false),
  });
}
