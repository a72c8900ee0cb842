import { formatUsd } from "#domain/money";

/** A USD figure with a true minus sign, so a negative difference reads "−$1.00", not "$-1.00". */
export function usd(amount: number): string {
  return amount < 0 ? `−${formatUsd(-amount)}` : formatUsd(amount);
}
