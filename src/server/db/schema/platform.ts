import { integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/** Rate-limit counters shared by every instance: one row per route and client key and window. */
export const rateLimits = pgTable("rate_limits", {
  key: text().primaryKey(),
  count: integer().notNull(),
  resetAt: timestamp({ withTimezone: true }).notNull(),
});
