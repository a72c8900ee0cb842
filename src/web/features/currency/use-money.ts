import { useCallback, useEffect } from "react";
import { type CurrencyCode, currencyByCode } from "#domain/currency";
import { formatOwed, formatPrice, formatUsd, type PriceOptions } from "#domain/money";
import { useFxRates } from "#web/features/currency/api/get-fx-rates";
import { useCurrency } from "#web/features/currency/currency-store";

/**
 * Prices in the chosen display currency: `price` a product's price with its unit (catalogue rules, or
 * exact with `exact: true`), `amount` an amount owed, to the cent (`formatOwed`). If the rates cannot be loaded the site quietly stays in USD
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
    (amountUsd: number, options: PriceOptions = {}) => formatPrice(amountUsd, code, list, options),
    [code, list],
  );
  const amount = useCallback((amountUsd: number | string) => formatOwed(amountUsd, code, list), [code, list]);
  return { currency: currencyByCode(code), ready, price, amount, usd: formatUsd };
}
