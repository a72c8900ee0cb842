import { formatUsd } from "#domain/money";

/** A USD figure with a true minus sign, so a negative difference reads "−$1.00", not "$-1.00". */
export function usd(amount: number): string {
  // The one rule for amounts owed (`formatOwed`), which writes the minus sign itself.
  return formatUsd(amount);
}
