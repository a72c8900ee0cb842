import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { Period } from "#domain/finance";
import { call } from "#web/lib/api";

export const financeKey = ["admin", "finance"] as const;

export const financeSummaryQueryOptions = (period: Period) =>
  queryOptions({
    queryKey: [...financeKey, "summary", period.from, period.to],
    queryFn: () => call("GET /admin/finance", { query: period }),
    placeholderData: keepPreviousData,
  });

/** The operator's books for a period, for super admins. */
export function useFinanceSummary(period: Period) {
  return useQuery(financeSummaryQueryOptions(period));
}

export const reconciliationQueryOptions = () =>
  queryOptions({
    queryKey: [...financeKey, "reconciliation"],
    queryFn: () => call("GET /admin/finance/reconciliation"),
  });

/** Captured money against the ledger's booked sales, order by order. */
export function useReconciliation() {
  return useQuery(reconciliationQueryOptions());
}

/** The period's journal as a CSV download (a plain link: the browser saves the attachment). */
export const journalCsvUrl = (period: Period) =>
  `/api/admin/finance/export.csv?${new URLSearchParams({ from: period.from, to: period.to })}`;
