import { productFiltersToSearch } from "#domain/catalog";
import { productListQuery } from "#domain/catalog-schemas";
import type { routePatterns } from "#domain/routes";

/** The URL's query as a schema reads it: a key given once is a string, a repeated one a list. */
export function queryRecord(params: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key);
    out[key] = values.length > 1 ? values : (values[0] ?? "");
  }
  return out;
}

/** From a URL's query, the part a page reads while it draws, in one canonical form ("" or "?…"). */
export type PageQuery = (params: URLSearchParams) => string;

const none: PageQuery = () => "";

/** These keys only, in name order (each key's values in their order); every other key is dropped. */
const only =
  (...names: string[]): PageQuery =>
  (params) => {
    const kept = new URLSearchParams();
    for (const name of [...names].sort()) for (const value of params.getAll(name)) kept.append(name, value);
    const text = kept.toString();
    return text ? `?${text}` : "";
  };

const listingKeys = only(...Object.keys(productListQuery.shape));

/**
 * The products page reads its filters through `productListQuery`: a valid query is written back the way
 * the page's own links write it (defaults left out, `pageSize` and `facets`, which the page does not
 * read, dropped), so `?page=1&sort=default&utm_source=x` is the page without a query. An invalid one
 * keeps the schema's keys as they came.
 */
const listing: PageQuery = (params) => {
  const parsed = productListQuery.safeParse(queryRecord(params));
  return parsed.success ? productFiltersToSearch(parsed.data) : listingKeys(params);
};

/**
 * The query each page drawn on the server reads while it draws (decision 0020), so the server keys its
 * kept pages on that and nothing else: tracking tags (`utm_*`, `fbclid`, `gclid`) and keys no page knows
 * make no new page. Only the pages listed here can be drawn on the server (`src/server/web/ssr.ts` names
 * them from this table). A page that reads a key only in an effect (home's `newsletter` outcome, a
 * product page's reseller `ref`) draws the same markup without it.
 */
export const pageQueries = {
  home: none,
  products: listing,
  product: none,
  compare: only("ids"),
  vendor: only("page"),
  page: none,
  about: none,
  contact: none,
  faq: none,
  privacy: none,
  terms: none,
  partner: none,
  developers: none,
} as const satisfies Partial<Record<keyof typeof routePatterns, PageQuery>>;
export type DrawnPage = keyof typeof pageQueries;
