import type { ProductSort } from "#domain/catalog";

/**
 * A keyset cursor: the sort key and id of the last product on the previous page, so the next page is
 * an index seek (`(key, id) > (…)`) whose cost does not grow with depth and which neither repeats nor
 * skips products that were added between page loads. Opaque to the client (base64url of a small JSON
 * array); anything that does not decode to exactly the expected shape is rejected, so a forged or
 * garbled link is a 400, never a database error.
 */
export type ProductCursor = { sort: ProductSort; key: string | null; id: string };

const VERSION = 1;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
// Exact text forms, so the key goes back to PostgreSQL without losing a microsecond or a decimal.
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const DECIMAL = /^\d{1,12}(\.\d{1,4})?$/;
/** A featured product's place in the admins' order (the Featured sort's key while among them). */
const POSITION = /^\d{1,9}$/;

/** Whether a Featured cursor's key is a place among the featured products (else a creation time). */
export const isFeaturedPositionKey = (key: string) => POSITION.test(key);
const POSITION_OR_TIMESTAMP = new RegExp(`${POSITION.source}|${TIMESTAMP.source}`);

/**
 * Which keys a sort's cursor carries: a timestamp, a price, a nullable rating score, or for Featured a
 * place among the featured products and, past them, a timestamp.
 */
const keyShapes: Record<ProductSort, { pattern: RegExp; nullable: boolean }> = {
  default: { pattern: POSITION_OR_TIMESTAMP, nullable: false },
  newest: { pattern: TIMESTAMP, nullable: false },
  "price-low": { pattern: DECIMAL, nullable: false },
  "price-high": { pattern: DECIMAL, nullable: false },
  rating: { pattern: DECIMAL, nullable: true },
  // Without a query relevance is the featured order; with one its pages go by number (no cursor).
  relevance: { pattern: POSITION_OR_TIMESTAMP, nullable: false },
};

const toBase64Url = (text: string) => btoa(text).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");

function fromBase64Url(text: string): string | null {
  if (!/^[A-Za-z0-9_-]{1,400}$/.test(text)) return null;
  try {
    return atob(text.replaceAll("-", "+").replaceAll("_", "/"));
  } catch {
    return null;
  }
}

export function encodeCursor(cursor: ProductCursor): string {
  return toBase64Url(JSON.stringify([VERSION, cursor.sort, cursor.key, cursor.id]));
}

/** The cursor for this sort, or null when the text is not one (garbled, forged, or made for another sort). */
export function decodeCursor(sort: ProductSort, text: string): ProductCursor | null {
  const json = fromBase64Url(text);
  if (json === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return null;
  }
  if (!Array.isArray(value) || value.length !== 4) return null;
  const [version, cursorSort, key, id] = value as unknown[];
  if (version !== VERSION || cursorSort !== sort) return null;
  if (typeof id !== "string" || !UUID.test(id)) return null;
  const shape = keyShapes[sort];
  if (!shape) return null;
  if (key === null) return shape.nullable ? { sort, key: null, id } : null;
  if (typeof key !== "string" || !shape.pattern.test(key)) return null;
  return { sort, key, id };
}
