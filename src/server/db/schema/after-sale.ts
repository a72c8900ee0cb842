import { sql } from "drizzle-orm";
import {
  check,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uuid,
} from "drizzle-orm/pg-core";
import type { HoldReason, SignalKind } from "#domain/commission-holds";
import { user } from "#server/db/schema/auth";
import { money, products } from "#server/db/schema/catalog";
import { orderItems, orders } from "#server/db/schema/orders";
import { payments } from "#server/db/schema/payments";

/** One referral code per reseller; random, so it says nothing about the account behind it. */
export const resellerCodes = pgTable("reseller_codes", {
  userId: text()
    .primaryKey()
    .references(() => user.id, { onDelete: "cascade" }),
  code: text().notNull().unique(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/** Counted visits through a reseller link: at most one per visitor, product and day. */
export const referralClicks = pgTable(
  "referral_clicks",
  {
    id: uuid().primaryKey().defaultRandom(),
    resellerId: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    productId: uuid()
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    /** A keyed hash of the visitor (their visitor cookie, else address and browser): no personal data kept. */
    visitorKey: text().notNull(),
    day: date().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique().on(t.resellerId, t.productId, t.visitorKey, t.day), index().on(t.resellerId, t.productId)],
);

/**
 * Where a reseller was seen (their sign-ins and their visits to their own links), as keyed hashes of
 * the address (`network`) and of address and browser (`device`), compared with a referred buyer's at
 * checkout. Kept here rather than read from sessions, which are deleted when the reseller signs out.
 */
export const resellerFingerprints = pgTable(
  "reseller_fingerprints",
  {
    userId: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    kind: text().$type<SignalKind>().notNull(),
    hash: text().notNull(),
    lastSeenAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.kind, t.hash] }),
    check("reseller_fingerprints_kind", sql`${t.kind} in ('device', 'network')`),
  ],
);

export const commissions = pgTable(
  "commissions",
  {
    id: uuid().primaryKey().defaultRandom(),
    orderItemId: uuid()
      .notNull()
      .unique()
      .references(() => orderItems.id, { onDelete: "cascade" }),
    orderId: uuid()
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    resellerId: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    productId: uuid().references(() => products.id, { onDelete: "set null" }),
    rate: numeric({ precision: 5, scale: 4 }).notNull(),
    amount: money().notNull(),
    status: text().notNull().default("pending"),
    /** Why the order looked like the reseller's own purchase; kept after an admin's decision. */
    holdReasons: jsonb().$type<HoldReason[]>(),
    /** End of the refund window: a pending commission is approved from then on unless refunded. */
    eligibleAt: timestamp({ withTimezone: true }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("commissions_status", sql`${t.status} in ('pending', 'held', 'approved', 'cancelled')`),
    index().on(t.resellerId, t.createdAt),
    index().on(t.status, t.eligibleAt),
  ],
);

export const licenses = pgTable(
  "licenses",
  {
    id: uuid().primaryKey().defaultRandom(),
    key: text().notNull().unique(),
    orderItemId: uuid()
      .notNull()
      .references(() => orderItems.id, { onDelete: "cascade" }),
    orderId: uuid()
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    userId: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    productId: uuid().references(() => products.id, { onDelete: "set null" }),
    productName: text().notNull(),
    status: text().notNull().default("active"),
    /** Machines the licence may be activated on at once (`licenseSeats` in `#domain/licenses`). */
    seats: integer().notNull().default(1),
    issuedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** Subscriptions (SaaS) renew yearly; perpetual software licenses have none. */
    renewsAt: timestamp({ withTimezone: true }),
    revokedAt: timestamp({ withTimezone: true }),
    /** When its seller suspended it (status `suspended`); cleared when reinstated. */
    suspendedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    check("licenses_status", sql`${t.status} in ('active', 'suspended', 'revoked')`),
    check("licenses_seats", sql`${t.seats} >= 1`),
    index().on(t.userId, t.issuedAt),
    index().on(t.orderItemId),
  ],
);

/**
 * The machines a licence is activated on, one row each, at most its `seats`. Deactivating deletes the
 * row; a machine not seen for `LICENSE_ACTIVATION_STALE_DAYS` is deactivated by a daily job.
 */
export const licenseActivations = pgTable(
  "license_activations",
  {
    id: uuid().primaryKey().defaultRandom(),
    licenseId: uuid()
      .notNull()
      .references(() => licenses.id, { onDelete: "cascade" }),
    /** The identifier the seller's software chose for the machine. */
    machine: text().notNull(),
    /** A name for people, e.g. the computer's name. */
    label: text().notNull().default(""),
    activatedAt: timestamp({ withTimezone: true }).notNull(),
    lastSeenAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [unique().on(t.licenseId, t.machine), index().on(t.lastSeenAt)],
);

export const refundRequests = pgTable(
  "refund_requests",
  {
    id: uuid().primaryKey().defaultRandom(),
    orderItemId: uuid()
      .notNull()
      .unique()
      .references(() => orderItems.id, { onDelete: "cascade" }),
    orderId: uuid()
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    buyerId: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    sellerId: text().references(() => user.id, { onDelete: "set null" }),
    reason: text().notNull(),
    status: text().notNull().default("requested"),
    sellerDueAt: timestamp({ withTimezone: true }).notNull(),
    sellerNote: text(),
    platformNote: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    resolvedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    check(
      "refund_requests_status",
      sql`${t.status} in ('requested', 'seller_rejected', 'escalated', 'approved', 'rejected')`,
    ),
    index().on(t.sellerId, t.status),
    index().on(t.status, t.createdAt),
    index().on(t.buyerId),
  ],
);

/**
 * The conversation on a refund request: its buyer, the item's seller and admins write plain text
 * (sanitised and limited, `refundMessageInputSchema`); each message notifies the other parties.
 * `authorRole` is the part the writer took when they wrote, kept if their account goes.
 */
export const refundMessages = pgTable(
  "refund_messages",
  {
    id: uuid().primaryKey().defaultRandom(),
    refundId: uuid()
      .notNull()
      .references(() => refundRequests.id, { onDelete: "cascade" }),
    authorId: text().references(() => user.id, { onDelete: "set null" }),
    authorRole: text().notNull(),
    body: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("refund_messages_author_role", sql`${t.authorRole} in ('buyer', 'seller', 'admin')`),
    index().on(t.refundId, t.createdAt),
    // The per-writer limit counts their recent messages.
    index().on(t.authorId, t.createdAt),
  ],
);

/**
 * How an approved refund's money goes back to the buyer: one row per refund request, made in the
 * approval's transaction. Through the provider the order was paid with (`payment_id`), keyed at the
 * provider by the refund id and the round (an admin's retry after a refusal is a new round), or, when
 * no provider took the money, a transfer the operator makes and records (`transfer_reference`).
 */
export const refundPayouts = pgTable(
  "refund_payouts",
  {
    refundId: uuid()
      .primaryKey()
      .references(() => refundRequests.id, { onDelete: "cascade" }),
    orderId: uuid()
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    /** The paid attempt the money was taken in; null for a transfer. */
    paymentId: uuid().references(() => payments.id, { onDelete: "set null" }),
    /** `test`, `stripe` or `paypal`; null for a transfer. */
    provider: text(),
    destination: text().notNull(),
    amountCents: integer().notNull(),
    state: text().notNull(),
    /** 1, then one more for each admin retry after a refusal; part of the provider's idempotency key. */
    round: integer().notNull().default(1),
    /** Calls made to the provider, over all rounds. */
    attempts: integer().notNull().default(0),
    providerRefundRef: text(),
    failureReason: text(),
    transferReference: text(),
    transferredOn: date({ mode: "string" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    check("refund_payouts_state", sql`${t.state} in ('pending', 'succeeded', 'failed', 'awaiting_transfer')`),
    check("refund_payouts_destination", sql`${t.destination} in ('card', 'paypal', 'bank')`),
    check("refund_payouts_amount", sql`${t.amountCents} >= 0`),
    index().on(t.state),
    index().on(t.orderId),
    index().on(t.provider, t.providerRefundRef),
  ],
);
