import { formatUsd } from "#domain/money";

/**
 * Earnings are paid in USD, so this workspace shows them in USD to the cent by the one money rule
 * (`formatOwed`; the ledger keeps the 1/10,000 a fee can have), never in a display currency; a negative
 * amount reads "−$12.00", not "$-12.00".
 */
export function usd(amount: number): string {
  // The one rule for amounts owed (`formatOwed`), which writes the minus sign itself.
  return formatUsd(amount);
}

const shortDay = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", timeZone: "UTC" });
const monthName = new Intl.DateTimeFormat("en-US", { month: "short", year: "2-digit", timeZone: "UTC" });

/** '30 Nov', for a `YYYY-MM-DD` day (UTC, as the server groups them). */
export function formatShortDay(day: string): string {
  return shortDay.format(new Date(`${day.slice(0, 10)}T00:00:00Z`));
}

/** 'Nov 26', for a `YYYY-MM` month. */
export function formatMonth(month: string): string {
  return monthName.format(new Date(`${month}-01T00:00:00Z`));
}
