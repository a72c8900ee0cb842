import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { payoutsKey } from "#web/features/payouts/api/get-payout-preview";
import { call } from "#web/lib/api";

export function usePayoutBatches(page: number) {
  return useQuery(
    queryOptions({
      queryKey: [...payoutsKey, "batches", { page }],
      queryFn: () => call("GET /admin/payouts/batches", { query: { page } }),
      placeholderData: keepPreviousData,
    }),
  );
}

export function usePayoutBatch(id: string) {
  return useQuery(
    queryOptions({
      queryKey: [...payoutsKey, "batch", id],
      queryFn: () => call("GET /admin/payouts/batches/:id", { params: { id } }),
    }),
  );
}

export const bankFileUrl = (batchId: string) =>
  `/api/admin/payouts/batches/${encodeURIComponent(batchId)}/bank-file.csv`;
