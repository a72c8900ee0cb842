import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { AdminBankTransfer, RecordedTransfer, RecordTransferAnswer } from "#domain/bank-transfer";
import { api } from "#web/lib/api";

const base = (orderId: string) => `/admin/orders/${encodeURIComponent(orderId)}`;

export const getAdminBankTransfer = (orderId: string) =>
  api<AdminBankTransfer>(`${base(orderId)}/bank-transfer`);

export const adminBankTransferQueryOptions = (orderId: string) =>
  queryOptions({
    queryKey: ["orders", "admin", "bank-transfer", orderId],
    queryFn: () => getAdminBankTransfer(orderId),
  });

export function useAdminBankTransfer(orderId: string | null) {
  return useQuery({ ...adminBankTransferQueryOptions(orderId ?? ""), enabled: orderId !== null });
}

/** Records a transfer received; the order (and its list) may have become confirmed. */
export const recordTransfer = (orderId: string, body: RecordedTransfer) =>
  api<RecordTransferAnswer>(`${base(orderId)}/bank-transfers`, { method: "POST", body });

export function useRecordTransfer(orderId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RecordedTransfer) => recordTransfer(orderId, body),
    onSuccess: (answer) => {
      queryClient.setQueryData(adminBankTransferQueryOptions(orderId).queryKey, answer.transfer);
      return queryClient.invalidateQueries({ queryKey: ["orders"] });
    },
  });
}

/** The order a transfer reference names, as a bank statement spells it. */
export const findOrderByReference = (reference: string) =>
  api<{ orderId: string }>(`/admin/bank-transfers/lookup?reference=${encodeURIComponent(reference)}`);
