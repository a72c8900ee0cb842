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

/** Spec rule: the discount badge shows only when the product has a discount and a label for it. */
export function showsDiscountBadge(product: Pick<ProductCard, "hasDiscount" | "discountLabel">): boolean {
  return product.hasDiscount && Boolean(product.discountLabel);
}

/** The products page's filters as URL query parameters (defaults left out, so links stay short). */
export function productFiltersToSearch(filters: Partial<ProductListQuery>): string {
  const query = new URLSearchParams();
  if (filters.search) query.set("search", filters.search);
  if (filters.category && filters.category !== "all") query.set("category", filters.category);
  if (filters.discount) query.set("discount", "true");
  if (filters.sort && filters.sort !== "default") query.set("sort", filters.sort);
  const text = query.toString();
  return text ? `?${text}` : "";
}
