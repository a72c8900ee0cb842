import { sql } from "drizzle-orm";
import { index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { user } from "#server/db/schema/auth";

/**
 * A seller's API key (decision 0028): its public prefix (`sbk_…`, unique) and the SHA-256 of the whole
 * key, never the key itself, which its seller sees once. Revoked keys are kept (`revokedAt`) so the
 * access log keeps naming them.
 */
export const sellerApiKeys = pgTable(
  "seller_api_keys",
  {
    id: uuid().primaryKey().defaultRandom(),
    sellerId: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    name: text().notNull(),
    prefix: text().notNull().unique(),
    /** SHA-256 of the whole key, hex. */
    secretHash: text().notNull(),
    scopes: text().array().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    rolledAt: timestamp({ withTimezone: true }),
    lastUsedAt: timestamp({ withTimezone: true }),
    revokedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index("seller_api_keys_live").on(t.sellerId).where(sql`${t.revokedAt} is null`)],
);

/** The seller API's access log: one row per call made with a known key. No request or answer contents. */
export const sellerApiCalls = pgTable(
  "seller_api_calls",
  {
    id: uuid().primaryKey().defaultRandom(),
    keyId: uuid()
      .notNull()
      .references(() => sellerApiKeys.id, { onDelete: "cascade" }),
    sellerId: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    at: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** The operation as declared, `METHOD /path` with its `:params`. */
    operation: text().notNull(),
    status: integer().notNull(),
  },
  (t) => [index("seller_api_calls_by_seller").on(t.sellerId, t.at), index("seller_api_calls_at").on(t.at)],
);
