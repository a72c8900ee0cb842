import { z } from "zod";
import {
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  MAX_SEARCH_LENGTH,
  type ProductSort,
  sortOptions,
} from "#domain/catalog";
import { paged, pageNumber } from "#domain/paging";
import { pricingUnits } from "#domain/pricing-units";

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
  page: pageNumber,
  pageSize: z.coerce
    .number({ error: "Page size must be a whole number" })
    .int("Page size must be a whole number")
    .min(1, "Page size must be 1 or more")
    .max(MAX_PAGE_SIZE, `Page size must be ${MAX_PAGE_SIZE} or less`)
    .optional()
    .default(DEFAULT_PAGE_SIZE),
});
export type ProductListQuery = z.output<typeof productListQuery>;

/** A category as `GET /api/categories` lists it (product filters, category names). */
export const categorySchema = z.object({ id: z.string(), name: z.string(), slug: z.string() });
export type Category = z.infer<typeof categorySchema>;
export const categoryListSchema = z.array(categorySchema);

/** A product's pricing unit as the API carries it; null when the seller has not said (the spec's fallback). */
export const pricingUnitSchema = z.enum(pricingUnits, {
  error: "Please choose a pricing unit from the list",
});

export const productCardSchema = z.object({
  id: z.string(),
  name: z.string(),
  vendor: z.string().nullable(),
  /** The seller's storefront (`/vendors/{slug}`); null for products Stackbay lists itself. */
  vendorSlug: z.string().nullable(),
  category: z.string(),
  price: z.number(),
  originalPrice: z.number().nullable(),
  pricingUnit: pricingUnitSchema.nullable(),
  imageUrl: z.string().nullable(),
  rating: z.number().nullable(),
  reviewsCount: z.number(),
  hasDiscount: z.boolean(),
  discountLabel: z.string().nullable(),
  discountPercentage: z.number().nullable(),
});
export type ProductCard = z.infer<typeof productCardSchema>;

export const productListSchema = paged(productCardSchema).extend({
  /** A nearer spelling of the search when some word of it is found nowhere as written (decision 0017). */
  didYouMean: z.string().optional(),
});

/** `GET /api/saved`: `available` is false once the product left the marketplace (inactive or in review). */
export const savedItemSchema = z.object({
  savedAt: z.string(),
  available: z.boolean(),
  product: productCardSchema,
});
export type SavedItem = z.infer<typeof savedItemSchema>;
export const savedListSchema = z.object({ items: z.array(savedItemSchema) });
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
