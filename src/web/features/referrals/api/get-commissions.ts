import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { CommissionStatus } from "#domain/commissions";
import { call } from "#web/lib/api";

/** The prefix of every admin commission list's key, for reloading them all after a decision. */
export const commissionsKey = ["admin", "commissions"] as const;

export const commissionsQueryOptions = (status: CommissionStatus, page: number) =>
  queryOptions({
    queryKey: [...commissionsKey, { status, page }],
    queryFn: () => call("GET /admin/commissions", { query: { status, page } }),
    placeholderData: keepPreviousData,
  });

/** Commissions of one status for the platform's review (held ones by default). */
export function useCommissions(status: CommissionStatus, page: number) {
  return useQuery(commissionsQueryOptions(status, page));
}
