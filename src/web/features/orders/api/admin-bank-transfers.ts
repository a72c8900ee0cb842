import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { RecordTransferInput } from "#domain/bank-transfer";
import { adminOrdersKey } from "#web/features/orders/api/get-admin-orders";
import { call } from "#web/lib/api";

export const getAdminBankTransfer = (orderId: string) =>
  call("GET /admin/orders/:id/bank-transfer", { params: { id: orderId } });

export const adminBankTransferQueryOptions = (orderId: string) =>
  queryOptions({
    queryKey: ["orders", "admin", "bank-transfer", orderId],
    queryFn: () => getAdminBankTransfer(orderId),
  });

export function useAdminBankTransfer(orderId: string | null) {
  return useQuery({ ...adminBankTransferQueryOptions(orderId ?? ""), enabled: orderId !== null });
}

/**
 * Records a transfer received; the order (and its list) may have become confirmed. The body is what the
 * admin typed (checked by the form's schema), not its parsed form: the server parses it again by the
 * same schema, which reads "120.5000" as more than two decimals.
 */
export const recordTransfer = (orderId: string, body: RecordTransferInput) =>
  call("POST /admin/orders/:id/bank-transfers", { params: { id: orderId }, body });

export function useRecordTransfer(orderId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RecordTransferInput) => recordTransfer(orderId, body),
    onSuccess: (answer) => {
      queryClient.setQueryData(adminBankTransferQueryOptions(orderId).queryKey, answer.transfer);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: ["orders"] }),
        queryClient.invalidateQueries({ queryKey: adminOrdersKey }),
      ]);
    },
  });
}

/** The order a transfer reference names, as a bank statement spells it. */
export const findOrderByReference = (reference: string) =>
  call("GET /admin/bank-transfers/lookup", { query: { reference } });
