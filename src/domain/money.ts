import { type CurrencyCode, currencyByCode } from "#domain/currency";
import { onFirstUse } from "#domain/dates";
import { type PricingUnit, unitSuffix } from "#domain/pricing-units";

/**
 * Amounts are stored as numeric(14,4) and travel as decimal strings; arithmetic happens on whole
 * ten-thousandths ("units") so that sub-cent API prices such as $0.004 are held exactly. What a buyer
 * owes (line totals, tax, order totals) is rounded to whole cents, so it is exactly what is charged.
 */
export const MONEY_SCALE = 4;
/** The largest amount a numeric(14,4) column holds: ten digits before the point, four after. */
export const MONEY_COLUMN_MAX = "9999999999.9999";
const UNITS_PER_DOLLAR = 10 ** MONEY_SCALE;
const UNITS_PER_CENT = UNITS_PER_DOLLAR / 100;

const DECIMAL = /^-?\d+(\.\d+)?$/;

export function toUnits(amount: string | number): number {
  const value =
    typeof amount === "number" ? amount : DECIMAL.test(amount.trim()) ? Number(amount) : Number.NaN;
  if (!Number.isFinite(value)) throw new RangeError(`Not a money amount: ${amount}`);
  return Math.round(value * UNITS_PER_DOLLAR);
}

export function fromUnits(units: number): string {
  return (units / UNITS_PER_DOLLAR).toFixed(MONEY_SCALE);
}

/** Whole cents as a money amount (decimal string): 1234 is "12.3400". */
export function centsAmount(cents: number): string {
  if (!Number.isInteger(cents)) throw new RangeError(`Not a whole number of cents: ${cents}`);
  return fromUnits(cents * UNITS_PER_CENT);
}

/**
 * price × quantity in units, rounded half up to whole cents: the one line-total rule behind every
 * subtotal. 99 minutes at $0.006 come to $0.59, which a card can be charged, not $0.594.
 */
function lineUnits(price: string | number, quantity: number): number {
  return Math.round((toUnits(price) * quantity) / UNITS_PER_CENT) * UNITS_PER_CENT;
}

/** An order or cart line's total, unit price × quantity to the cent, as a decimal string. */
export function lineTotal(price: string | number, quantity: number): string {
  return fromUnits(lineUnits(price, quantity));
}

export type FxRate = { currencyCode: string; rateToUsd: number; fxBuffer: number };

/** price × rate_to_usd × (1 + fx_buffer) for non-USD; USD, or a currency with no rate row, stays as it is. */
export function convertFromUsd(amountUsd: number, currency: CurrencyCode, rates: readonly FxRate[]): number {
  if (currency === "USD") return amountUsd;
  const rate = rates.find((r) => r.currencyCode === currency);
  if (!rate) return amountUsd;
  return amountUsd * rate.rateToUsd * (1 + rate.fxBuffer);
}

/**
 * A whole number with en-US grouping ("1,234,567"), as `Intl.NumberFormat("en-US")` writes it, without
 * Intl: the first Intl formatter a page makes loads the locale data (about 15 ms on a desktop, four times
 * that on a phone, in one piece), and the public pages' prices and figures need no more than this.
 */
export function groupThousands(whole: number): string {
  const digits = String(Math.abs(whole)).replace(/\B(?=(\d{3})+$)/g, ",");
  return whole < 0 || Object.is(whole, -0) ? `-${digits}` : digits;
}

/** Rounded to a whole number as Intl rounds (half away from zero), then grouped. */
const wholeAmount = (amount: number) => groupThousands(Math.sign(amount) * Math.round(Math.abs(amount)));

// Only INR amounts need it (see `onFirstUse`).
const indian = onFirstUse(() => new Intl.NumberFormat("en-IN", { maximumFractionDigits: 0 }));

function withSymbol(currency: CurrencyCode, digits: string): string {
  const { symbol } = currencyByCode(currency);
  return symbol.length > 1 ? `${symbol} ${digits}` : `${symbol}${digits}`;
}

/**
 * Display rules of the spec (section 9). One deliberate reading: amounts below 1 show three decimals in
 * every currency, INR included, because "no decimals" would print a paid ₹0.33 API call as ₹0.
 */
export function formatAmount(amount: number, currency: CurrencyCode): string {
  if (amount > 0 && amount < 1) return withSymbol(currency, amount.toFixed(3));
  if (currency === "INR") {
    if (amount >= 10_000_000) return withSymbol(currency, `${(amount / 10_000_000).toFixed(1)}Cr`);
    if (amount >= 100_000) return withSymbol(currency, `${(amount / 100_000).toFixed(1)}L`);
    return withSymbol(currency, indian().format(amount));
  }
  return withSymbol(currency, wholeAmount(amount));
}

/** API products priced per call (below 1 USD, 'API' in the name) read "/transaction" after the price. */
export function isPerTransaction(productName: string, amountUsd: number): boolean {
  return amountUsd < 1 && productName.includes("API");
}

/**
 * The text after a price. A product with a pricing unit says it (" / month"); one without falls back
 * to the spec's rule, "/transaction" for a per-call API product.
 */
export function priceSuffix(
  unit: PricingUnit | null | undefined,
  productName: string,
  amountUsd: number,
): string {
  if (unit) return unitSuffix(unit);
  return isPerTransaction(productName, amountUsd) ? "/transaction" : "";
}

export type PriceOptions = {
  /** The product's name, for the "/transaction" fallback of products without a unit. */
  productName?: string;
  unit?: PricingUnit | null;
  /**
   * A unit price the buyer owes (cart, checkout, orders, invoices): exact, by `formatUnitPrice`.
   * Otherwise a catalogue price, by the spec's display rules (`formatAmount`).
   */
  exact?: boolean;
};

/** A USD price in `currency` with what it buys: "$9 / month", "$0.006 / minute", "$0.004/transaction". */
export function formatPrice(
  amountUsd: number,
  currency: CurrencyCode,
  rates: readonly FxRate[],
  { productName = "", unit = null, exact = false }: PriceOptions = {},
): string {
  const text = exact
    ? formatUnitPrice(amountUsd, currency, rates)
    : formatAmount(convertFromUsd(amountUsd, currency, rates), currency);
  return `${text}${priceSuffix(unit, productName, amountUsd)}`;
}

const moneyDigits = (currency: CurrencyCode, maximumFractionDigits: number) =>
  new Intl.NumberFormat(currency === "INR" ? "en-IN" : "en-US", {
    minimumFractionDigits: 2,
    maximumFractionDigits,
  });
const moneyFormats = new Map<string, Intl.NumberFormat>();

/**
 * A non-negative amount with two to `maximumFractionDigits` decimals and en-US grouping, as
 * `Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits })` writes it (from the
 * number's shortest decimal form, half away from zero), without Intl (see `groupThousands`). Null for a
 * number whose shortest form has an exponent.
 */
export function decimalDigits(value: number, maximumFractionDigits: number): string | null {
  const shortest = String(value);
  if (!/^\d+(\.\d+)?$/.test(shortest)) return null;
  const [whole = "0", fraction = ""] = shortest.split(".");
  let digits = `${whole}${fraction.slice(0, maximumFractionDigits).padEnd(maximumFractionDigits, "0")}`;
  if ((fraction[maximumFractionDigits] ?? "0") >= "5") digits = String(BigInt(digits) + 1n);
  digits = digits.padStart(maximumFractionDigits + 1, "0");
  const point = digits.length - maximumFractionDigits;
  const decimals = digits.slice(point).replace(/0+$/, "").padEnd(2, "0");
  return `${groupThousands(Number(digits.slice(0, point)))}.${decimals}`;
}

function withDigits(value: number, currency: CurrencyCode, maximumFractionDigits: number): string {
  const key = `${currency}:${maximumFractionDigits}`;
  const digits = (amount: number) => {
    if (currency !== "INR") {
      const written = decimalDigits(amount, maximumFractionDigits);
      if (written !== null) return written;
    }
    let format = moneyFormats.get(key);
    if (!format) {
      format = moneyDigits(currency, maximumFractionDigits);
      moneyFormats.set(key, format);
    }
    return format.format(amount);
  };
  const magnitude = digits(Math.abs(value));
  const text = withSymbol(currency, magnitude);
  return value < 0 && magnitude !== digits(0) ? `−${text}` : text;
}

const usdOf = (amountUsd: number | string) =>
  typeof amountUsd === "string" ? toUnits(amountUsd) / UNITS_PER_DOLLAR : amountUsd;

/**
 * The one money rule for every amount a person reads (carts, checkout, orders, invoices, refunds,
 * earnings, wallets, payouts, finance, dashboards, e-mails): to the cent, half a cent rounded away from
 * zero, never rounded to whole units as catalogue prices are. Exact units stay internal: the ledger
 * and the books hold ten-thousandths, so an older order's "$31,206.404" reads "$31,206.40". A
 * converted amount is rounded after converting. Negative amounts read "−$5.00".
 */
export function formatOwed(
  amountUsd: number | string,
  currency: CurrencyCode = "USD",
  rates: readonly FxRate[] = [],
): string {
  const units = toUnits(convertFromUsd(usdOf(amountUsd), currency, rates));
  const cents = Math.sign(units) * Math.round(Math.abs(units) / UNITS_PER_CENT);
  return withDigits(cents / 100, currency, 2);
}

/**
 * A unit price (what one minute, call or seat costs), exact: a USD price keeps its sub-cent digits
 * ("$0.006"), since a per-call price is not an amount anyone pays alone; a converted one is to the
 * cent, below 1 to four decimals so it never reads as zero.
 */
export function formatUnitPrice(
  amountUsd: number | string,
  currency: CurrencyCode = "USD",
  rates: readonly FxRate[] = [],
): string {
  const value = convertFromUsd(usdOf(amountUsd), currency, rates);
  return withDigits(value, currency, currency === "USD" || Math.abs(value) < 1 ? MONEY_SCALE : 2);
}

/** An amount in USD (payouts, bank transfers, what a card is charged): `formatOwed` in USD. */
export function formatUsd(amountUsd: number | string): string {
  return formatOwed(amountUsd, "USD");
}

/** The highest tax rate a jurisdiction may be given (the tax_rates column's check allows up to it). */
export const MAX_TAX_RATE = "0.5000";
const RATE = /^\d(\.\d{1,4})?$/;

/** A rate such as "0.18" or "0.1800" in ten-thousandths (1800); at most four decimals, as stored. */
export function rateUnits(rate: string): number {
  const text = rate.trim();
  if (!RATE.test(text)) throw new RangeError(`Not a tax rate: ${rate}`);
  const [whole = "0", fraction = ""] = text.split(".");
  return Number(whole) * UNITS_PER_DOLLAR + Number(fraction.padEnd(MONEY_SCALE, "0"));
}

export type Totals = { subtotal: string; tax: string; total: string; lineTaxes: string[] };

/**
 * Subtotal, tax at `rate` (a decimal string, "0.1800") and total, each in whole cents; lines are unit
 * prices as decimal strings. The tax is the subtotal's, rounded half up to the cent once, so the order
 * is never off by the sum of per-line roundings; `lineTaxes` splits it back over the lines in whole
 * cents in proportion to their amounts (`allocateUnits`), so the shares add up to exactly the tax.
 */
export function computeTotals(lines: readonly { price: string; quantity: number }[], rate: string): Totals {
  const perRate = BigInt(rateUnits(rate));
  const scale = BigInt(UNITS_PER_DOLLAR);
  const amounts = lines.map((line) => BigInt(lineUnits(line.price, line.quantity)));
  const subtotal = amounts.reduce((sum, units) => sum + units, 0n);
  const cent = BigInt(UNITS_PER_CENT);
  const taxCents = (subtotal * perRate + (scale * cent) / 2n) / (scale * cent);
  const tax = taxCents * cent;
  const shares = allocateUnits(Number(taxCents), amounts.map(Number)).map((c) => c * UNITS_PER_CENT);
  return {
    subtotal: fromUnits(Number(subtotal)),
    tax: fromUnits(Number(tax)),
    total: fromUnits(Number(subtotal + tax)),
    lineTaxes: shares.map(fromUnits),
  };
}

/** A rate as people read it: "0.1800" is "18%", "0.2550" is "25.5%". */
export function formatRatePercent(rate: string | number): string {
  const units = rateUnits(String(rate));
  const percent = `${Math.trunc(units / 100)}.${String(units % 100).padStart(2, "0")}`;
  return `${percent.replace(/\.?0+$/, "")}%`;
}

/**
 * The whole US cents a provider charges for an amount held to 1/10,000 USD: half a cent and more rounds
 * up, as a cash register does. Every payment and refund sent to a provider goes through this.
 */
export function chargeCents(amount: string): number {
  const units = toUnits(amount);
  return Math.sign(units) * Math.round(Math.abs(units) / 100);
}

/**
 * Splits `total` units over parts in proportion to `weights`, exactly: each part gets its floor share
 * and the units left go one each to the largest remainders, so the parts always sum to `total`.
 */
export function allocateUnits(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (sum === 0) return weights.map((_, i) => (i === 0 ? total : 0));
  const raw = weights.map((w) => (BigInt(total) * BigInt(w)) / BigInt(sum));
  const parts = raw.map(Number);
  const remainders = weights
    .map((w, i) => ({ i, r: (BigInt(total) * BigInt(w)) % BigInt(sum) }))
    .sort((a, b) => (a.r === b.r ? a.i - b.i : a.r > b.r ? -1 : 1));
  let left = total - parts.reduce((a, b) => a + b, 0);
  for (const { i } of remainders) {
    if (left <= 0) break;
    parts[i] = (parts[i] ?? 0) + 1;
    left--;
  }
  return parts;
}
