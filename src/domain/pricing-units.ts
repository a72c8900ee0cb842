/**
 * What a product's price buys: once, or per period, seat, call, minute or unit (issue 18). Plain
 * constants without zod, because the cart and every price on the site read them and zod stays out of
 * that bundle; the zod enum built from them is `pricingUnitSchema` in `catalog-schemas.ts`.
 */
export const pricingUnits = [
  "one_time",
  "month",
  "year",
  "user_month",
  "user_year",
  "api_call",
  "minute",
  "unit",
] as const;
export type PricingUnit = (typeof pricingUnits)[number];

/** The product form's choices. */
export const pricingUnitLabels: Record<PricingUnit, string> = {
  one_time: "One-time",
  month: "Per month",
  year: "Per year",
  user_month: "Per user per month",
  user_year: "Per user per year",
  api_call: "Per API call",
  minute: "Per minute",
  unit: "Per unit",
};

/** What follows the price ("$9 / month"); a one-time price reads as the amount alone. */
const suffixes: Record<PricingUnit, string | null> = {
  one_time: null,
  month: " / month",
  year: " / year",
  user_month: " / user / month",
  user_year: " / user / year",
  api_call: " / API call",
  minute: " / minute",
  unit: " / unit",
};

export function isPricingUnit(value: unknown): value is PricingUnit {
  return typeof value === "string" && (pricingUnits as readonly string[]).includes(value);
}

/** The text after a price in this unit: " / month", or nothing for a one-time price. */
export function unitSuffix(unit: PricingUnit): string {
  return suffixes[unit] ?? "";
}
