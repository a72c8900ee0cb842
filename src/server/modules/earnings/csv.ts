import { csvAmount, csvText } from "#domain/csv";
import type { SaleLine } from "#domain/earnings";
import { saleLineStatusLabel } from "#domain/earnings";

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
  const rows = lines.map((line) => [
    line.soldAt,
    line.orderId,
    line.productName,
    line.quantity,
    csvAmount(line.gross),
    line.feeRate.toFixed(4),
    csvAmount(line.fee),
    csvAmount(line.commission),
    csvAmount(line.tax),
    line.taxLabel,
    csvAmount(line.net),
    saleLineStatusLabel[line.status],
    line.availableAt ?? "",
  ]);
  return csvText(header, rows);
}
