import { useCallback, useEffect } from "react";
import { type CurrencyCode, currencyByCode } from "#domain/currency";
import { convertFromUsd, formatAmount, formatPrice, formatUsd } from "#domain/money";
import { useFxRates } from "#web/features/currency/api/get-fx-rates";
import { useCurrency } from "#web/features/currency/currency-store";

/**
 * Prices in the chosen display currency. If the rates cannot be loaded the site quietly stays in USD
 * (the failure is only logged); while they load, `ready` is false for non-USD currencies.
 */
export function useMoney() {
  const chosen = useCurrency();
  const rates = useFxRates();
  useEffect(() => {
    if (rates.error) console.warn("FX rates failed to load; showing USD", rates.error);
  }, [rates.error]);
  const code: CurrencyCode = rates.isError ? "USD" : chosen;
  const list = rates.data ?? [];
  const ready = code === "USD" || rates.isSuccess;

  const price = useCallback(
    (amountUsd: number, productName = "") => formatPrice(amountUsd, code, list, productName),
    [code, list],
  );
  const amount = useCallback(
    (amountUsd: number) => formatAmount(convertFromUsd(amountUsd, code, list), code),
    [code, list],
  );
  return { currency: currencyByCode(code), ready, price, amount, usd: formatUsd };
}
