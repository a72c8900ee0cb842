import { z } from "zod";

export const sortOptions = [
  { value: "default", label: "Featured" },
  { value: "newest", label: "Newest" },
  { value: "price-low", label: "Price: Low to High" },
  { value: "price-high", label: "Price: High to Low" },
  { value: "rating", label: "Highest Rated" },
] as const;
export type ProductSort = (typeof sortOptions)[number]["value"];

export const MAX_PAGE_SIZE = 48;
export const DEFAULT_PAGE_SIZE = 24;
export const MAX_SEARCH_LENGTH = 100;
export const FEATURED_COUNT = 8;

const flag = z
  .enum(["true", "false", "1", "0"], { error: "must be true or false" })
  .transform((value) => value === "true" || value === "1");

/** The listing's query string: one schema for the products page's URL and the API. */
export const productListQuery = z.object({
  search: z
    .string()
    .trim()
    .max(MAX_SEARCH_LENGTH, `Search text can be at most ${MAX_SEARCH_LENGTH} characters`)
    .optional()
    .default(""),
  category: z
    .string()
    .regex(/^[a-z0-9-]{1,60}$/, "Category must be 'all' or a category slug")
    .optional()
    .default("all"),
  discount: flag.optional().default(false),
  sort: z
    .enum(sortOptions.map((o) => o.value) as [ProductSort, ...ProductSort[]], {
      error: `Sort must be one of ${sortOptions.map((o) => o.value).join(", ")}`,
    })
    .optional()
    .default("default"),
  page: z.coerce
    .number({ error: "Page must be a whole number" })
    .int("Page must be a whole number")
    .min(1, "Page must be 1 or more")
    .max(10_000, "Page must be 10000 or less")
    .optional()
    .default(1),
  pageSize: z.coerce
    .number({ error: "Page size must be a whole number" })
    .int("Page size must be a whole number")
    .min(1, "Page size must be 1 or more")
    .max(MAX_PAGE_SIZE, `Page size must be ${MAX_PAGE_SIZE} or less`)
    .optional()
    .default(DEFAULT_PAGE_SIZE),
});
export type ProductListQuery = z.output<typeof productListQuery>;

export const productCardSchema = z.object({
  id: z.string(),
  name: z.string(),
  vendor: z.string().nullable(),
  category: z.string(),
  price: z.number(),
  originalPrice: z.number().nullable(),
  imageUrl: z.string().nullable(),
  rating: z.number().nullable(),
  reviewsCount: z.number(),
  hasDiscount: z.boolean(),
  discountLabel: z.string().nullable(),
  discountPercentage: z.number().nullable(),
});
export type ProductCard = z.infer<typeof productCardSchema>;

export const productListSchema = z.object({
  items: z.array(productCardSchema),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
});
export type ProductList = z.infer<typeof productListSchema>;

export const productDetailSchema = productCardSchema.extend({
  description: z.string().nullable(),
  images: z.array(z.string()),
  features: z.array(z.object({ id: z.string(), feature: z.string() })),
  specifications: z.array(z.object({ id: z.string(), key: z.string(), value: z.string() })),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ProductDetail = z.infer<typeof productDetailSchema>;

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
