import type { SaleLine } from "#domain/earnings";
import { saleLineStatusLabel } from "#domain/earnings";
import { csvCell } from "#domain/inbound";
import { fromUnits, toUnits } from "#domain/money";

/** A plain decimal a spreadsheet reads as a number: cents always, the 3rd and 4th place when used. */
export function csvAmount(usd: number): string {
  return fromUnits(toUnits(usd)).replace(
    /(\.\d\d)(\d?[1-9])?0*$/,
    (_all, cents, more) => cents + (more ?? ""),
  );
}

const header = [
  "sold_at",
  "order_id",
  "product",
  "quantity",
  "gross",
  "fee_rate",
  "fee",
  "commission",
  "tax",
  "tax_label",
  "net",
  "status",
  "available_at",
];

/**
 * The seller's sales as CSV, a row per item: text is quoted and defused against formulas (a product
 * named "=HYPERLINK(…)" stays text), numbers are plain decimals, dates ISO.
 */
export function salesCsv(lines: readonly SaleLine[]): string {
  const rows = lines.map((line) =>
    [
      csvCell(line.soldAt),
      csvCell(line.orderId),
      csvCell(line.productName),
      String(line.quantity),
      csvAmount(line.gross),
      line.feeRate.toFixed(4),
      csvAmount(line.fee),
      csvAmount(line.commission),
      csvAmount(line.tax),
      csvCell(line.taxLabel),
      csvAmount(line.net),
      csvCell(saleLineStatusLabel[line.status]),
      csvCell(line.availableAt ?? ""),
    ].join(","),
  );
  return [header.join(","), ...rows].map((row) => `${row}\r\n`).join("");
}
