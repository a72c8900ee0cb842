import { fromUnits, toUnits } from "#domain/money";

/**
 * Spreadsheet files (exports, the bank payment file). A text cell is quoted, and a leading = + - @
 * defused so no spreadsheet runs it as a formula; a number, or text that is only a decimal number, is
 * written as it is (a negative amount is a number, not a formula).
 */
export type CsvValue = string | number | null;

const DECIMAL = /^-?\d+(\.\d+)?$/;

export function csvCell(value: CsvValue): string {
  if (value === null) return "";
  if (typeof value === "number" || DECIMAL.test(value)) return String(value);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replaceAll('"', '""')}"`;
}

/** A header of plain column names and the rows as CSV text, CRLF line ends as RFC 4180 says. */
export function csvText(header: readonly string[], rows: readonly (readonly CsvValue[])[]): string {
  return [header.join(","), ...rows.map((row) => row.map(csvCell).join(","))]
    .map((line) => `${line}\r\n`)
    .join("");
}

/** An amount as a spreadsheet reads it: cents always, the 3rd and 4th place only when used. */
export function csvAmount(usd: number): string {
  return fromUnits(toUnits(usd)).replace(
    /(\.\d\d)(\d?[1-9])?0*$/,
    (_all, cents, more) => cents + (more ?? ""),
  );
}
