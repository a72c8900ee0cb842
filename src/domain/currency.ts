/** The spec's currency options. `flag` is the spec's field; screens name a currency by its code (flag emoji are boxed letters on devices without an emoji font). */
export const currencies = [
  { code: "USD", name: "US Dollar", symbol: "$", flag: "🇺🇸" },
  // The spec leaves the dirham's symbol open; "AED" is what UAE price tags and invoices print.
  { code: "AED", name: "UAE Dirham", symbol: "AED", flag: "🇦🇪" },
  { code: "EUR", name: "Euro", symbol: "€", flag: "🇪🇺" },
  { code: "GBP", name: "British Pound", symbol: "£", flag: "🇬🇧" },
  { code: "INR", name: "Indian Rupee", symbol: "₹", flag: "🇮🇳" },
] as const;

export type CurrencyCode = (typeof currencies)[number]["code"];
export type Currency = (typeof currencies)[number];

export const DEFAULT_CURRENCY: CurrencyCode = "USD";

export function isCurrencyCode(value: unknown): value is CurrencyCode {
  return typeof value === "string" && currencies.some((c) => c.code === value);
}

export function currencyByCode(code: CurrencyCode): Currency {
  return currencies.find((c) => c.code === code) ?? currencies[0];
}
