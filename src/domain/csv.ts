/**
 * Spreadsheet files (exports, the bank payment file). A text cell is quoted, and a leading = + - @
 * defused so no spreadsheet runs it as a formula; a number is written as it is (a negative amount is a
 * number, not a formula).
 */
export type CsvValue = string | number | null;

export function csvCell(value: CsvValue): string {
  if (value === null) return "";
  if (typeof value === "number") return String(value);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replaceAll('"', '""')}"`;
}

/** Rows (the header first) as CSV text, CRLF line ends as RFC 4180 says. */
export function csvText(rows: readonly (readonly CsvValue[])[]): string {
  return rows.map((row) => `${row.map(csvCell).join(",")}\r\n`).join("");
}
