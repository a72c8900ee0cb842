import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { FxCurrencyCode, FxRateUpdate } from "#domain/system";
import { auditLogKey } from "#web/features/audit/api/get-audit-log";
import { fxRatesQueryOptions } from "#web/features/currency/api/get-fx-rates";
import { systemQueryOptions } from "#web/features/system/api/get-system";
import { call } from "#web/lib/api";

export type FxRateChange = FxRateUpdate & { code: FxCurrencyCode };

export const updateFxRate = ({ code, rateToUsd, fxBuffer }: FxRateChange) =>
  call("PUT /admin/fx-rates/:code", { params: { code }, body: { rateToUsd, fxBuffer } }).then((r) => r.rate);

/** Saves one currency's rate; the system figures and the prices every screen converts reload. */
export function useUpdateFxRate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateFxRate,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: systemQueryOptions().queryKey }),
        queryClient.invalidateQueries({ queryKey: fxRatesQueryOptions().queryKey }),
        queryClient.invalidateQueries({ queryKey: auditLogKey }),
      ]),
  });
}
