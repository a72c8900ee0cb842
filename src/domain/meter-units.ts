/*
 * What metered plans count and how a listing priced by use alone reads (decision 0029), apart from
 * #domain/metering: prices are drawn on every page, and this keeps zod and the rest of metering out of
 * the home route's JavaScript budget.
 */

/** What a metered plan counts. */
export const meterUnits = ["call", "minute", "gb", "unit"] as const;
export type MeterUnit = (typeof meterUnits)[number];

/** Each unit's name for one and for many ("1 call", "2 calls"). */
export const meterUnitNames: Record<MeterUnit, { one: string; many: string }> = {
  call: { one: "call", many: "calls" },
  minute: { one: "minute", many: "minutes" },
  gb: { one: "GB", many: "GB" },
  unit: { one: "unit", many: "units" },
};

/**
 * What a product priced by use alone lists (decision 0029): its first plan is metered with no monthly
 * fee, so its listed price ($0 a month) says nothing; its unit prices do. `unitPrice` is the lowest of
 * its tiers (USD, at most four decimals) and `tiered` whether others cost more.
 */
export type PayAsYouGo = { unit: MeterUnit; unitPrice: string; tiered: boolean };

/**
 * The one rule for how a pay-as-you-go listing's price reads, wherever a price is drawn: the figure (its
 * lowest unit price, in the reader's currency by `formatUnit`), "From" before it when tiers differ, and
 * what it buys after it: { prefix: "From ", figure: "$0.004", suffix: " / call, pay as you go" }.
 */
export function listedPriceParts(
  payg: PayAsYouGo,
  formatUnit: (amountUsd: string) => string,
): { prefix: string; figure: string; suffix: string } {
  return {
    prefix: payg.tiered ? "From " : "",
    figure: formatUnit(payg.unitPrice),
    suffix: ` / ${meterUnitNames[payg.unit].one}, pay as you go`,
  };
}

/** `listedPriceParts` as one line: "$0.004 / call, pay as you go", "From $0.002 / minute, pay as you go". */
export function listedPriceLabel(payg: PayAsYouGo, formatUnit: (amountUsd: string) => string): string {
  const { prefix, figure, suffix } = listedPriceParts(payg, formatUnit);
  return `${prefix}${figure}${suffix}`;
}
