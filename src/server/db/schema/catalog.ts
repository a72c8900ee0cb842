import { sql } from "drizzle-orm";
import { boolean, check, index, integer, numeric, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
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
    imageUrl: text(),
    images: text().array().notNull().default(sql`'{}'::text[]`),
    rating: numeric({ precision: 2, scale: 1 }),
    reviewsCount: integer().notNull().default(0),
    vendor: text(),
    hasDiscount: boolean().notNull().default(false),
    discountLabel: text(),
    discountPercentage: integer(),
    isActive: boolean().notNull().default(true),
    isResellable: boolean().notNull().default(false),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("products_price_non_negative", sql`${t.price} >= 0`),
    check("products_rating_range", sql`${t.rating} between 0 and 5`),
    check("products_discount_range", sql`${t.discountPercentage} between 0 and 100`),
    index("products_name_trgm").using("gin", t.name.op("gin_trgm_ops")),
    index("products_vendor_trgm").using("gin", t.vendor.op("gin_trgm_ops")),
    index("products_description_trgm").using("gin", t.description.op("gin_trgm_ops")),
    index().on(t.category),
    index().on(t.price),
    index().on(t.rating),
    index().on(t.createdAt),
    index().on(t.sellerId),
  ],
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
