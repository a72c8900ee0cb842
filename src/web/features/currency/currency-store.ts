import { type CurrencyCode, currencyByCode, DEFAULT_CURRENCY, isCurrencyCode } from "#domain/currency";
import { showToast } from "#web/lib/lazy-toast";
import { createLocalStore } from "#web/lib/local-store";
import { toastError } from "#web/lib/mutation";

export const currencyStore = createLocalStore<CurrencyCode>(
  "stackbay.currency",
  (raw) => (isCurrencyCode(raw) ? raw : DEFAULT_CURRENCY),
  (code) => code,
);

const chosenListeners = new Set<(code: CurrencyCode) => void>();

/** Told of each currency the visitor picks (not of values applied from elsewhere); returns the unsubscribe. */
export function onCurrencyChosen(listener: (code: CurrencyCode) => void) {
  chosenListeners.add(listener);
  return () => {
    chosenListeners.delete(listener);
  };
}

export function useCurrency(): CurrencyCode {
  return currencyStore.use();
}

/** One toast for the currency: each choice's replaces the last one's instead of stacking under it. */
const CURRENCY_TOAST = "currency";

/** Switches the display currency at once; an unsupported code is refused with the spec's toast. */
export function chooseCurrency(code: string) {
  if (!isCurrencyCode(code)) {
    toastError(null, {
      id: CURRENCY_TOAST,
      title: "Invalid Currency",
      description: "The selected currency is not supported.",
    });
    return;
  }
  currencyStore.set(code);
  const currency = currencyByCode(code);
  showToast("success", "Currency Changed", {
    id: CURRENCY_TOAST,
    description: `Switched to ${currency.name} (${currency.symbol})`,
  });
  for (const listener of chosenListeners) listener(code);
}
