import { sql } from "drizzle-orm";
import {
  check,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uuid,
} from "drizzle-orm/pg-core";
import { licenses } from "#server/db/schema/after-sale";
import { user } from "#server/db/schema/auth";
import { products } from "#server/db/schema/catalog";
import { orderItems } from "#server/db/schema/orders";

/**
 * A buyer's review of a product they paid for (one per buyer and product). The order item it cites
 * is what makes it a verified purchase; hidden reviews stay for the author and admins but leave the
 * product's rating.
 */
export const reviews = pgTable(
  "reviews",
  {
    id: uuid().primaryKey().defaultRandom(),
    productId: uuid()
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    userId: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    orderItemId: uuid().references(() => orderItems.id, { onDelete: "set null" }),
    rating: integer().notNull(),
    title: text().notNull(),
    body: text().notNull(),
    status: text().notNull().default("published"),
    hiddenReason: text(),
    sellerReply: text(),
    sellerReplyAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("reviews_rating_range", sql`${t.rating} between 1 and 5`),
    check("reviews_status", sql`${t.status} in ('published', 'hidden')`),
    unique("reviews_user_product_unique").on(t.userId, t.productId),
    index().on(t.productId, t.createdAt),
  ],
);

/** One report per signed-in user and review, so admins see how many people flagged it. */
export const reviewReports = pgTable(
  "review_reports",
  {
    reviewId: uuid()
      .notNull()
      .references(() => reviews.id, { onDelete: "cascade" }),
    userId: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.reviewId, t.userId] })],
);

/** The UTC days on which a license was validated through the license API: "Verified active use". */
export const licenseValidationDays = pgTable(
  "license_validation_days",
  {
    licenseId: uuid()
      .notNull()
      .references(() => licenses.id, { onDelete: "cascade" }),
    day: date({ mode: "string" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.licenseId, t.day] })],
);
