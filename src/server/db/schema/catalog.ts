import { type SQL, sql } from "drizzle-orm";
import { boolean, check, index, integer, numeric, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { moderationStatuses } from "#domain/moderation";
import { pricingUnits } from "#domain/pricing-units";
import { user } from "#server/db/schema/auth";

/** USD amounts: four decimals hold per-call API prices such as $0.004 exactly. */
export const money = () => numeric({ precision: 14, scale: 4 });

export const categories = pgTable("categories", {
  id: uuid().primaryKey().defaultRandom(),
  name: text().notNull(),
  slug: text().notNull().unique(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

export const products = pgTable(
  "products",
  {
    id: uuid().primaryKey().defaultRandom(),
    sellerId: text().references(() => user.id, { onDelete: "set null" }),
    name: text().notNull(),
    description: text(),
    category: text()
      .notNull()
      .references(() => categories.slug, { onUpdate: "cascade", onDelete: "restrict" }),
    price: money().notNull(),
    originalPrice: money(),
    /** What the price buys (one-time, per month, per API call, …); null reads by the spec's fallback. */
    pricingUnit: text({ enum: pricingUnits }),
    imageUrl: text(),
    images: text().array().notNull().default(sql`'{}'::text[]`),
    rating: numeric({ precision: 2, scale: 1 }),
    reviewsCount: integer().notNull().default(0),
    /** Bayesian average of the published reviews (decision 0012), the rating sort's key; null without reviews. */
    ratingScore: numeric({ precision: 5, scale: 4 }),
    vendor: text(),
    hasDiscount: boolean().notNull().default(false),
    discountLabel: text(),
    discountPercentage: integer(),
    isActive: boolean().notNull().default(true),
    isResellable: boolean().notNull().default(false),
    /** Share of an item's subtotal paid to the reseller who referred the sale; the seller sets it. */
    commissionRate: numeric({ precision: 5, scale: 4 }).notNull().default("0.1000"),
    /**
     * Listing moderation (decision 0013): only `approved` products are public. Rows older than
     * moderation were all public, so the column's default keeps them approved; new listings and
     * material edits are given their state by the manage-products service.
     */
    moderationStatus: text({ enum: moderationStatuses }).notNull().default("approved"),
    /** Why an admin rejected the listing, shown to the seller; null unless rejected. */
    moderationReason: text(),
    moderatedBy: text().references(() => user.id, { onDelete: "set null" }),
    moderatedAt: timestamp({ withTimezone: true }),
    /**
     * Name, vendor and description in one column, lower-cased and without accents, so every search
     * word is matched against one trigram index (decision 0017). `immutable_unaccent` is the
     * migration's immutable wrapper of unaccent, which a generated column needs.
     */
    searchText: text().generatedAlwaysAs(
      (): SQL =>
        sql`immutable_unaccent(lower(${products.name} || ' ' || coalesce(${products.vendor}, '') || ' ' || coalesce(${products.description}, '')))`,
    ),
    /**
     * Name and vendor alone, prepared the same way: near spellings are matched and ranked against this
     * short text, which is far cheaper to compare than the description (decision 0017).
     */
    searchName: text().generatedAlwaysAs(
      (): SQL => sql`immutable_unaccent(lower(${products.name} || ' ' || coalesce(${products.vendor}, '')))`,
    ),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("products_price_non_negative", sql`${t.price} >= 0`),
    check("products_rating_range", sql`${t.rating} between 0 and 5`),
    check("products_discount_range", sql`${t.discountPercentage} between 0 and 100`),
    check("products_commission_rate_range", sql`${t.commissionRate} between 0 and 0.5`),
    check(
      "products_pricing_unit",
      sql`${t.pricingUnit} is null or ${t.pricingUnit} in ('one_time', 'month', 'year', 'user_month', 'user_year', 'api_call', 'minute', 'unit')`,
    ),
    check("products_moderation_status", sql`${t.moderationStatus} in ('pending', 'approved', 'rejected')`),
    // The admin queue reads pending listings oldest first; approved ones are the bulk and never queued.
    index("products_moderation_queue_index")
      .on(t.updatedAt, t.id)
      .where(sql`${t.moderationStatus} = 'pending'`),
    index("products_search_trgm").using("gin", t.searchText.op("gin_trgm_ops")),
    index("products_search_name_trgm").using("gin", t.searchName.op("gin_trgm_ops")),
    // The relevance bonus of a name that is the whole query, read first when a search ranks by tiers.
    index("products_lower_name_index").on(sql`lower(${t.name})`),
    // Category pages sorted by price would otherwise walk the global price order past other categories.
    index("products_category_price_id_index").on(t.category, t.price, t.id),
    // Each sort key is paired with the id tie-breaker, so a page is read straight off the index.
    index("products_price_id_index").on(t.price, t.id),
    index("products_rating_score_id_index").on(t.ratingScore.desc().nullsLast(), t.id),
    index("products_created_at_id_index").on(t.createdAt, t.id),
    index().on(t.sellerId),
  ],
);

/**
 * Every uploaded file (display image and thumbnail) and who uploaded it: only they, or an admin, may
 * put it on a product. Files not listed here (demo images, uploads older than this table) are free.
 */
export const uploads = pgTable(
  "uploads",
  {
    url: text().primaryKey(),
    /** Null once the uploader's account is deleted: the file then belongs to nobody but admins. */
    ownerId: text().references(() => user.id, { onDelete: "set null" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index().on(t.ownerId)],
);

export const productFeatures = pgTable(
  "product_features",
  {
    id: uuid().primaryKey().defaultRandom(),
    productId: uuid()
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    feature: text().notNull(),
    position: integer().notNull().default(0),
  },
  (t) => [index().on(t.productId)],
);

export const productSpecifications = pgTable(
  "product_specifications",
  {
    id: uuid().primaryKey().defaultRandom(),
    productId: uuid()
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    specKey: text().notNull(),
    specValue: text().notNull(),
    position: integer().notNull().default(0),
  },
  (t) => [index().on(t.productId)],
);

export const fxRates = pgTable("fx_rates", {
  currencyCode: text().primaryKey(),
  rateToUsd: numeric({ precision: 18, scale: 8 }).notNull(),
  fxBuffer: numeric({ precision: 6, scale: 4 }).notNull().default("0"),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * The home page's Featured Products as admins chose and ordered them (decision 0013). Empty means
 * the spec's fallback: the first active products in the default order.
 */
export const featuredProducts = pgTable(
  "featured_products",
  {
    productId: uuid()
      .primaryKey()
      .references(() => products.id, { onDelete: "cascade" }),
    position: integer().notNull(),
    addedBy: text().references(() => user.id, { onDelete: "set null" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index().on(t.position)],
);

/**
 * The public face of one seller account (issue 17, item 5), keyed by the seller's user id. The slug is
 * fixed when the storefront is created, so links and search results never break on a rename; the name
 * is copied onto the seller's products as their vendor, in the transaction that renames it.
 */
export const storefronts = pgTable(
  "storefronts",
  {
    userId: text()
      .primaryKey()
      .references(() => user.id, { onDelete: "cascade" }),
    slug: text().notNull().unique(),
    name: text().notNull(),
    /** One of the seller's uploads (`/uploads/...`), checked against `uploads` when saved. */
    logoUrl: text(),
    description: text(),
    /** An https address; rendered with rel="nofollow noopener ugc". */
    website: text(),
    /** ISO 3166-1 alpha-2 code (`src/domain/countries.ts`). */
    country: text(),
    /** An admin's decision, audited as a `storefront` change. */
    isVerified: boolean().notNull().default(false),
    verifiedBy: text().references(() => user.id, { onDelete: "set null" }),
    verifiedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check("storefronts_slug_format", sql`${t.slug} ~ '^[a-z0-9]+(-[a-z0-9]+)*$'`)],
);

/**
 * A seller's new storefront name or logo waiting for an admin (decision 0015, issue 29): the storefront,
 * its Verified badge and the vendor of the seller's products keep the approved identity until an admin
 * approves it. One per seller; a rejected one stays, with its reason, until the next submission. Its own
 * table, so a submission writes no catalogue table and clears no cache.
 */
export const storefrontChanges = pgTable(
  "storefront_changes",
  {
    userId: text()
      .primaryKey()
      .references(() => user.id, { onDelete: "cascade" }),
    name: text().notNull(),
    logoUrl: text(),
    status: text({ enum: ["pending", "rejected"] })
      .notNull()
      .default("pending"),
    reason: text(),
    submittedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    decidedBy: text().references(() => user.id, { onDelete: "set null" }),
    decidedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index("storefront_changes_pending").on(t.submittedAt).where(sql`${t.status} = 'pending'`)],
);

/**
 * Slugs of storefronts that were deleted (with their seller's account), filled by a trigger on
 * `storefronts` whatever deletes the row: a new storefront never takes one, so an old link, review or
 * search result never leads to someone else who happens to share the name (decision 0015). Holds no
 * personal data beyond the public slug.
 */
export const retiredStorefrontSlugs = pgTable("retired_storefront_slugs", {
  slug: text().primaryKey(),
  retiredAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
