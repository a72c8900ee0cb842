import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { AdminTaxRate } from "#domain/tax";
import { auditLogKey } from "#web/features/audit/api/get-audit-log";
import { taxFactsQueryOptions } from "#web/features/tax/api/get-tax-rates";
import { api } from "#web/lib/api";

type AdminTaxRates = { items: AdminTaxRate[] };

export const adminTaxRatesQueryOptions = () =>
  queryOptions({
    queryKey: ["admin", "tax-rates"],
    queryFn: () => api<AdminTaxRates>("/admin/tax-rates").then((r) => r.items),
  });

export function useAdminTaxRates() {
  return useQuery(adminTaxRatesQueryOptions());
}

/** `ratePercent` null returns the jurisdiction to its default rate. */
export type TaxRateChange = { jurisdiction: string; ratePercent: string | null };

export const changeTaxRate = ({ jurisdiction, ratePercent }: TaxRateChange) => {
  const path = `/admin/tax-rates/${encodeURIComponent(jurisdiction)}`;
  const request =
    ratePercent === null
      ? api<AdminTaxRates>(path, { method: "DELETE" })
      : api<AdminTaxRates>(path, { method: "PUT", body: { ratePercent } });
  return request.then((r) => r.items);
};

/** Saves a rate (or goes back to the default); the list, the checkout's rates and the audit log reload. */
export function useChangeTaxRate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeTaxRate,
    onSuccess: (items) => {
      queryClient.setQueryData(adminTaxRatesQueryOptions().queryKey, items);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: taxFactsQueryOptions().queryKey }),
        queryClient.invalidateQueries({ queryKey: auditLogKey }),
      ]);
    },
  });
}
