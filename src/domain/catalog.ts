import type { ProductCard, ProductListQuery } from "#domain/catalog-schemas";

export const sortOptions = [
  { value: "default", label: "Featured" },
  { value: "newest", label: "Newest" },
  { value: "price-low", label: "Price: Low to High" },
  { value: "price-high", label: "Price: High to Low" },
  { value: "rating", label: "Highest Rated" },
  { value: "relevance", label: "Best match" },
] as const;
export type ProductSort = (typeof sortOptions)[number]["value"];

export const MAX_PAGE_SIZE = 48;
export const DEFAULT_PAGE_SIZE = 24;
export const MAX_SEARCH_LENGTH = 100;
export const FEATURED_COUNT = 8;
/** Vendors one listing may filter by at once, and how many the vendor facet shows before "Show all". */
export const MAX_FACET_CHOICES = 20;
/**
 * How many vendors the facet answer carries at most (those with the most matches): "Show all vendors"
 * lists them all on any catalogue of fewer vendors; beyond that the panel says how many it leaves out.
 */
export const VENDOR_FACET_LIMIT = 200;
/**
 * Listing totals are counted up to this many: counting every match of a common word on a million
 * products is the slow half of a listing, and "10,000+" says as much to a buyer.
 */
export const COUNT_CAP = 10_000;
/** Bars in the price histogram. */
export const PRICE_BUCKETS = 12;

/** Spec rule: the discount badge shows only when the product has a discount and a label for it. */
export function showsDiscountBadge(product: Pick<ProductCard, "hasDiscount" | "discountLabel">): boolean {
  return product.hasDiscount && Boolean(product.discountLabel);
}

/** A listing's answer as far as its count line needs it. */
export type ListingCount = {
  total: number;
  totalCapped: boolean;
  page: number;
  pageSize: number;
  shown: number;
};

/** The last page a listing of `total` matches has (1 when there are none). */
export const lastPageOf = (total: number, pageSize: number) => Math.max(1, Math.ceil(total / pageSize));

/**
 * A page number beyond the end (a typed or old `?page=99`): the page to offer instead, the last one, or
 * null when the page is not past the end. Empty listings have no such page: they are simply empty.
 */
export function pastTheEnd(listing: ListingCount): number | null {
  return listing.shown === 0 && listing.total > 0 && listing.page > 1
    ? lastPageOf(listing.total, listing.pageSize)
    : null;
}

/** "Showing 65 products" (or "10,000+"): every match of the filters, whatever page is on screen. */
export function matchesLabel(listing: Pick<ListingCount, "total" | "totalCapped">, verb = "Showing"): string {
  return listing.totalCapped
    ? `${verb} ${listing.total.toLocaleString("en-US")}+ products`
    : `${verb} ${listing.total} ${listing.total === 1 ? "product" : "products"}`;
}

/** The count line above the results: what is shown, and on a page past the end, that nothing is. */
export function listingCountLabel(listing: ListingCount): string {
  const last = pastTheEnd(listing);
  if (last === null) return matchesLabel(listing);
  const pages = `${last.toLocaleString("en-US")} ${last === 1 ? "page" : "pages"}`;
  return `No products on page ${listing.page.toLocaleString("en-US")}: ${matchesLabel(listing, "the list has")} on ${pages}`;
}

/** The products page's filters as URL query parameters (defaults left out, so links stay short). */
export function productFiltersToSearch(filters: Partial<ProductListQuery>): string {
  const query = new URLSearchParams();
  if (filters.search) query.set("search", filters.search);
  if (filters.category && filters.category !== "all") query.set("category", filters.category);
  if (filters.discount) query.set("discount", "true");
  for (const vendor of filters.vendor ?? []) query.append("vendor", vendor);
  for (const unit of filters.unit ?? []) query.append("unit", unit);
  if (filters.minPrice) query.set("minPrice", filters.minPrice);
  if (filters.maxPrice) query.set("maxPrice", filters.maxPrice);
  if (filters.minRating) query.set("minRating", String(filters.minRating));
  if (filters.sort && filters.sort !== "default") query.set("sort", filters.sort);
  if (filters.page && filters.page > 1) query.set("page", String(filters.page));
  if (filters.after) query.set("after", filters.after);
  const text = query.toString();
  return text ? `?${text}` : "";
}
