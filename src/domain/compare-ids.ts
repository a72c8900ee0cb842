// The compare list's ids and limits, without zod: the product page's compare button needs only these,
// and zod would add 25 KB to that page (the schemas are in compare.ts).

/** Side by side stays readable up to four products (issue 19, item 5); fewer than two is no comparison. */
export const MIN_COMPARE = 2;
export const MAX_COMPARE = 4;
/** Related products shown under a product page. */
export const MAX_RELATED = 8;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A comma-separated list of ids as the URL carries it: blanks dropped, repeats kept once, in order. */
export function splitIds(raw: string | null | undefined): string[] {
  const ids = (raw ?? "")
    .split(",")
    .map((id) => id.trim().toLowerCase())
    .filter(Boolean);
  return [...new Set(ids)];
}

export function isProductId(value: string): boolean {
  return UUID.test(value);
}
