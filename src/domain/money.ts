import { type CurrencyCode, currencyByCode } from "#domain/currency";

/**
 * Amounts are stored as numeric(14,4) and travel as decimal strings; arithmetic happens on whole
 * ten-thousandths ("units") so that sub-cent API prices such as $0.004 add up exactly.
 */
export const MONEY_SCALE = 4;
/** The largest amount a numeric(14,4) column holds: ten digits before the point, four after. */
export const MONEY_COLUMN_MAX = "9999999999.9999";
const UNITS_PER_DOLLAR = 10 ** MONEY_SCALE;

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

/** price × quantity in units, the one line-total rule behind every subtotal. */
function lineUnits(price: string | number, quantity: number): number {
  return toUnits(price) * quantity;
}

/** An order or cart line's total, unit price × quantity, exact to 1/10,000 USD, as a decimal string. */
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

const grouped = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
const indian = new Intl.NumberFormat("en-IN", { maximumFractionDigits: 0 });

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
    return withSymbol(currency, indian.format(amount));
  }
  return withSymbol(currency, grouped.format(amount));
}

/** API products priced per call (below 1 USD, 'API' in the name) read "/transaction" after the price. */
export function isPerTransaction(productName: string, amountUsd: number): boolean {
  return amountUsd < 1 && productName.includes("API");
}

export function formatPrice(
  amountUsd: number,
  currency: CurrencyCode,
  rates: readonly FxRate[],
  productName = "",
): string {
  const text = formatAmount(convertFromUsd(amountUsd, currency, rates), currency);
  return isPerTransaction(productName, amountUsd) ? `${text}/transaction` : text;
}

export function formatUsd(amountUsd: number): string {
  return `$${amountUsd.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 4 })}`;
}

export const TAX_RATE = 0.05;

export type Totals = { subtotal: string; tax: string; total: string };

/** Subtotal, 5% tax and total, exact to the fourth decimal; lines are unit prices as decimal strings. */
export function computeTotals(lines: readonly { price: string; quantity: number }[]): Totals {
  const subtotal = lines.reduce((sum, line) => sum + lineUnits(line.price, line.quantity), 0);
  const tax = Math.round(subtotal * TAX_RATE);
  return { subtotal: fromUnits(subtotal), tax: fromUnits(tax), total: fromUnits(subtotal + tax) };
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
