import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
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

/**
 * A seller's webhook endpoint (decision 0030): where events they chose are posted, signed with a secret
 * that is sealed at rest (it must be read back to sign). During a rotation's overlap the secret before it
 * still signs beside it until `previousSecretUntil`.
 */
export const sellerWebhookEndpoints = pgTable(
  "seller_webhook_endpoints",
  {
    id: uuid().primaryKey().defaultRandom(),
    sellerId: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    url: text().notNull(),
    description: text().notNull().default(""),
    events: text().array().notNull(),
    /** The signing secret, sealed (`lib/sealed.ts`). */
    secretSealed: text().notNull(),
    previousSecretSealed: text(),
    previousSecretUntil: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    rotatedAt: timestamp({ withTimezone: true }),
    /** Since when every attempt to it failed; null once one succeeds. */
    failingSince: timestamp({ withTimezone: true }),
    disabledAt: timestamp({ withTimezone: true }),
  },
  (t) => [index("seller_webhook_endpoints_by_seller").on(t.sellerId)],
);

/** An event for one seller, written in the transaction of what caused it (the outbox). */
export const sellerWebhookEvents = pgTable(
  "seller_webhook_events",
  {
    /** `evt_…`, the id receivers use to recognise a repeated delivery. */
    id: text().primaryKey(),
    sellerId: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    type: text().notNull(),
    data: jsonb().$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index("seller_webhook_events_by_seller").on(t.sellerId, t.createdAt)],
);

/**
 * One event's delivery to one endpoint and its last attempt. A pending delivery is attempted once
 * `nextAttemptAt` has passed (a job that takes it moves it on by a lease, so no other takes it meanwhile)
 * and retried until `retryUntil`.
 */
export const sellerWebhookDeliveries = pgTable(
  "seller_webhook_deliveries",
  {
    id: uuid().primaryKey().defaultRandom(),
    eventId: text()
      .notNull()
      .references(() => sellerWebhookEvents.id, { onDelete: "cascade" }),
    endpointId: uuid()
      .notNull()
      .references(() => sellerWebhookEndpoints.id, { onDelete: "cascade" }),
    status: text().$type<"pending" | "succeeded" | "failed">().notNull().default("pending"),
    attempts: integer().notNull().default(0),
    nextAttemptAt: timestamp({ withTimezone: true }),
    retryUntil: timestamp({ withTimezone: true }).notNull(),
    lastAttemptAt: timestamp({ withTimezone: true }),
    responseStatus: integer(),
    durationMs: integer(),
    lastError: text(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [
    index("seller_webhook_deliveries_by_endpoint").on(t.endpointId, t.createdAt),
    index("seller_webhook_deliveries_due").on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
  ],
);
