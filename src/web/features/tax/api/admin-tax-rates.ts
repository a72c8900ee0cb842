import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { auditLogKey } from "#web/features/audit/api/get-audit-log";
import { taxFactsQueryOptions } from "#web/features/tax/api/get-tax-rates";
import { call } from "#web/lib/api";

export const adminTaxRatesQueryOptions = () =>
  queryOptions({
    queryKey: ["admin", "tax-rates"],
    queryFn: () => call("GET /admin/tax-rates").then((r) => r.items),
  });

export function useAdminTaxRates() {
  return useQuery(adminTaxRatesQueryOptions());
}

/** `ratePercent` null returns the jurisdiction to its default rate. */
export type TaxRateChange = { jurisdiction: string; ratePercent: string | null };

export const changeTaxRate = ({ jurisdiction, ratePercent }: TaxRateChange) => {
  const params = { jurisdiction };
  const request =
    ratePercent === null
      ? call("DELETE /admin/tax-rates/:jurisdiction", { params })
      : call("PUT /admin/tax-rates/:jurisdiction", { params, body: { ratePercent } });
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
