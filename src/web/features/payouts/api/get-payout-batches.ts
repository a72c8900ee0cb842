import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { PayoutBatch, PayoutBatchDetail } from "#domain/finance";
import type { Paged } from "#domain/paging";
import { payoutsKey } from "#web/features/payouts/api/get-payout-preview";
import { api } from "#web/lib/api";

export function usePayoutBatches(page: number) {
  return useQuery(
    queryOptions({
      queryKey: [...payoutsKey, "batches", { page }],
      queryFn: () => api<Paged<PayoutBatch>>("/admin/payouts/batches", { query: { page } }),
      placeholderData: keepPreviousData,
    }),
  );
}

export function usePayoutBatch(id: string) {
  return useQuery(
    queryOptions({
      queryKey: [...payoutsKey, "batch", id],
      queryFn: () => api<PayoutBatchDetail>(`/admin/payouts/batches/${encodeURIComponent(id)}`),
    }),
  );
}

export const bankFileUrl = (batchId: string) =>
  `/api/admin/payouts/batches/${encodeURIComponent(batchId)}/bank-file.csv`;
