import { z } from "zod";
import {
  DEFAULT_PAGE_SIZE,
  MAX_FACET_CHOICES,
  MAX_PAGE_SIZE,
  MAX_SEARCH_LENGTH,
  type ProductSort,
  sortOptions,
} from "#domain/catalog";
import { meterSchema, payAsYouGoSchema } from "#domain/metering";
import { paged, pageNumber } from "#domain/paging";
import { pricingUnits } from "#domain/pricing-units";
import { decodeCursor } from "#domain/product-cursor";
import { billingIntervals } from "#domain/subscriptions";

const flag = z
  .enum(["true", "false", "1", "0"], { error: "must be true or false" })
  .transform((value) => value === "true" || value === "1");

/** A repeated query parameter (`?vendor=A&vendor=B`) arrives as a string once and as an array after. */
const repeated = <T extends z.ZodType>(item: T, max: number, what: string) =>
  z
    .preprocess(
      (value) => (value === undefined || Array.isArray(value) ? value : [value]),
      z.array(item).max(max, `Choose at most ${max} ${what}`),
    )
    .optional()
    .default([]);

/** A USD amount as typed in the price filter: exact decimal text, never a float. */
const priceBound = (which: string) =>
  z
    .string()
    .trim()
    .regex(/^\d{1,10}(\.\d{1,4})?$/, `${which} price must be an amount such as 10 or 9.99`)
    .optional();

/** Compares two non-negative decimal strings exactly (the price filter's min ≤ max rule). */
function compareDecimals(a: string, b: string): number {
  const [ai = "", af = ""] = a.split(".");
  const [bi = "", bf = ""] = b.split(".");
  const width = Math.max(ai.length, bi.length);
  const left = ai.replace(/^0+/, "").padStart(width, "0") + af.padEnd(4, "0");
  const right = bi.replace(/^0+/, "").padStart(width, "0") + bf.padEnd(4, "0");
  return left < right ? -1 : left > right ? 1 : 0;
}

/** The listing's query string: one schema for the products page's URL and the API. */
export const productListQuery = z
  .object({
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
    vendor: repeated(
      z.string().trim().min(1, "Vendor must not be empty").max(100, "Vendor can be at most 100 characters"),
      MAX_FACET_CHOICES,
      "vendors",
    ),
    unit: repeated(
      z.enum(pricingUnits, { error: `Unit must be one of ${pricingUnits.join(", ")}` }),
      pricingUnits.length,
      "units",
    ),
    minPrice: priceBound("Minimum"),
    maxPrice: priceBound("Maximum"),
    minRating: z.coerce
      .number({ error: "Minimum rating must be 1, 2, 3 or 4" })
      .int("Minimum rating must be 1, 2, 3 or 4")
      .min(1, "Minimum rating must be 1, 2, 3 or 4")
      .max(4, "Minimum rating must be 1, 2, 3 or 4")
      .optional(),
    /** The keyset cursor of the page before this one (see `product-cursor.ts`). */
    after: z.string().max(400, "This page link is not valid; start again from page 1").optional(),
    /** Ask for the facet counts with the page (the products page does; other lists skip the cost). */
    facets: flag.optional().default(false),
  })
  .superRefine((query, ctx) => {
    if (query.minPrice && query.maxPrice && compareDecimals(query.minPrice, query.maxPrice) > 0) {
      ctx.addIssue({
        code: "custom",
        path: ["maxPrice"],
        message: "Maximum price must be at least the minimum price",
      });
    }
    if (query.after !== undefined && !decodeCursor(query.sort, query.after)) {
      ctx.addIssue({
        code: "custom",
        path: ["after"],
        message: "This page link is not valid; start again from page 1",
      });
    }
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
  /**
   * A product priced by use alone (its first plan metered, without a fee; decision 0029): its unit
   * price, listed instead of "$0.00 / month" (`listedPriceLabel`). Null for any other product.
   */
  payAsYouGo: payAsYouGoSchema.nullable(),
  imageUrl: z.string().nullable(),
  rating: z.number().nullable(),
  reviewsCount: z.number(),
  hasDiscount: z.boolean(),
  discountLabel: z.string().nullable(),
  discountPercentage: z.number().nullable(),
});
export type ProductCard = z.infer<typeof productCardSchema>;

const facetCount = <T extends z.ZodType>(value: T) => z.object({ value, count: z.number() });

/**
 * Counts for each filter of the products page. Each facet counts with every *other* active filter
 * applied (so choosing a vendor still shows how many the other vendors have). Counts are exact.
 */
export const productFacetsSchema = z.object({
  categories: z.array(facetCount(z.string())),
  /**
   * The vendors with the most matches, at most VENDOR_FACET_LIMIT (chosen vendors always included);
   * the panel shows the first MAX_FACET_CHOICES until the buyer asks for all.
   */
  vendors: z.array(facetCount(z.string())),
  /** How many vendors have matches, listed or not. */
  vendorsTotal: z.number(),
  units: z.array(facetCount(pricingUnitSchema)),
  /** Products rated at least `value` stars (4, 3, 2, 1). */
  ratings: z.array(facetCount(z.number())),
  discounted: z.number(),
  price: z.object({
    min: z.number().nullable(),
    max: z.number().nullable(),
    /** Equal-width price bands between min and max, for the histogram. */
    buckets: z.array(z.object({ from: z.number(), to: z.number(), count: z.number() })),
  }),
  /**
   * True when the search has so many matches that the counts come from a sample of the catalogue,
   * scaled: shown as approximate ("about 1,200").
   */
  estimated: z.boolean(),
});
export type ProductFacets = z.infer<typeof productFacetsSchema>;

export const productListSchema = paged(productCardSchema).extend({
  /** True when `total` is the cap (COUNT_CAP) and the real number is larger: show it as "10,000+". */
  totalCapped: z.boolean(),
  /** The cursor of the next page (`?page=n+1&after=…`), null on the last page. */
  nextCursor: z.string().nullable(),
  facets: productFacetsSchema.nullable(),
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

/**
 * One plan of a recurring product as buyers see it (decision 0027): a price per interval (USD with
 * cents), flat (its quantity counts copies) or per seat within its range, and its free trial in days.
 */
export const productPlanSchema = z.object({
  id: z.string(),
  name: z.string(),
  interval: z.enum(billingIntervals),
  price: z.string(),
  perSeat: z.boolean(),
  minSeats: z.number().int(),
  maxSeats: z.number().int(),
  trialDays: z.number().int(),
  /** Whether starting its trial needs a saved card (charged when the trial converts). */
  trialNeedsCard: z.boolean(),
  /** A metered plan's unit and tiers: use billed monthly in arrears, on top of `price`; null otherwise. */
  meter: meterSchema.nullable(),
});
export type ProductPlan = z.infer<typeof productPlanSchema>;

export const productDetailSchema = productCardSchema.extend({
  description: z.string().nullable(),
  images: z.array(z.string()),
  features: z.array(z.object({ id: z.string(), feature: z.string() })),
  specifications: z.array(z.object({ id: z.string(), key: z.string(), value: z.string() })),
  /** A recurring product's plans, in the order its seller set; empty for a product sold once. */
  plans: z.array(productPlanSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ProductDetail = z.infer<typeof productDetailSchema>;

/**
 * `GET /api/marketplace-stats`: the figures the home page, About and the footer show, counted from the
 * database (issue 30): products on sale, the vendors selling them, the countries of those vendors and of
 * paying buyers, the buyers who have paid for an order, and the mean of the published reviews of the
 * products on sale (one decimal, as a product's rating; null before the first review).
 */
export const marketplaceStatsSchema = z.object({
  products: z.number().int().nonnegative(),
  vendors: z.number().int().nonnegative(),
  countries: z.number().int().nonnegative(),
  customers: z.number().int().nonnegative(),
  rating: z.string().nullable(),
  reviews: z.number().int().nonnegative(),
});
export type MarketplaceStats = z.infer<typeof marketplaceStatsSchema>;
