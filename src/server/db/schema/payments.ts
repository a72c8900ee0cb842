import { sql } from "drizzle-orm";
import {
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uuid,
} from "drizzle-orm/pg-core";
import { user } from "#server/db/schema/auth";
import { money } from "#server/db/schema/catalog";
import { orders } from "#server/db/schema/orders";
import { paymentMethods } from "#server/db/schema/payment-methods";

/**
 * One attempt to pay an order at a provider. An order has one row per attempt (a declined payment is
 * tried again as attempt 2, with a new idempotency key); only a provider's verified answer moves it.
 */
export const payments = pgTable(
  "payments",
  {
    id: uuid().primaryKey().defaultRandom(),
    orderId: uuid()
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    provider: text().notNull(),
    /** The provider's session id; null between the attempt's insert and the provider's answer. */
    providerRef: text(),
    attempt: integer().notNull(),
    amountCents: integer().notNull(),
    state: text().notNull().default("pending"),
    /** Why a payment failed, was cancelled or expired, as the provider (or the expiry) said. */
    reason: text(),
    /** The saved method an off-session attempt charged (a renewal, a retry, an upgrade); null for a payment page. */
    savedMethodId: uuid().references(() => paymentMethods.id, { onDelete: "set null" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("payments_state", sql`${t.state} in ('pending', 'paid', 'failed', 'cancelled', 'expired')`),
    check("payments_provider", sql`${t.provider} in ('test', 'stripe', 'paypal')`),
    unique().on(t.orderId, t.attempt),
    unique().on(t.provider, t.providerRef),
    index().on(t.state, t.createdAt),
  ],
);

/** Every verified webhook event, stored once: a repeated delivery finds its row and changes nothing. */
export const paymentEvents = pgTable(
  "payment_events",
  {
    provider: text().notNull(),
    eventId: text().notNull(),
    receivedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** `payment`, `refund` or `ignored` (a type the marketplace does not act on). */
    kind: text().notNull(),
    /** The order the event moved or was about; null when it names no order we know. */
    orderId: uuid().references(() => orders.id, { onDelete: "set null" }),
  },
  (t) => [primaryKey({ columns: [t.provider, t.eventId] })],
);

export type TestSessionRefund = {
  refundId: string;
  amountCents: number;
  state: "succeeded" | "failed";
  reason: string | null;
};

/**
 * The test-mode provider's own sessions: what a real provider keeps on its side. The buyer's choice on
 * the hosted test page is recorded here, and `lookup`/`complete` answer from it.
 */
export const testPaymentSessions = pgTable(
  "test_payment_sessions",
  {
    ref: text().primaryKey(),
    idempotencyKey: text().notNull().unique(),
    orderId: uuid().notNull(),
    amountCents: integer().notNull(),
    description: text().notNull(),
    returnUrl: text().notNull(),
    cancelUrl: text().notNull(),
    state: text().notNull().default("pending"),
    reason: text(),
    refunds: jsonb().$type<TestSessionRefund[]>().notNull().default([]),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    check("test_payment_sessions_state", sql`${t.state} in ('pending', 'paid', 'failed', 'cancelled')`),
  ],
);

/**
 * A bank-transfer order's instructions: the reference the buyer writes on the transfer (unique, so a
 * transfer names one order), the amount asked for in whole cents and the day it lapses. `expiredAt` is
 * set when the due date passed unpaid, cleared when the buyer asks for the order again.
 */
export const bankTransferOrders = pgTable(
  "bank_transfer_orders",
  {
    orderId: uuid()
      .primaryKey()
      .references(() => orders.id, { onDelete: "cascade" }),
    reference: text().notNull().unique(),
    amountDue: money().notNull(),
    dueAt: timestamp({ withTimezone: true }).notNull(),
    expiredAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index().on(t.dueAt)],
);

/**
 * Each transfer an admin recorded as received for a bank-transfer order. The bank's own reference is
 * unique per order, so the same transfer entered twice is stored once.
 */
export const bankTransfers = pgTable(
  "bank_transfers",
  {
    id: uuid().primaryKey().defaultRandom(),
    orderId: uuid()
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    amount: money().notNull(),
    receivedOn: date().notNull(),
    bankReference: text().notNull(),
    recordedBy: text().references(() => user.id, { onDelete: "set null" }),
    recordedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check("bank_transfers_amount", sql`${t.amount} > 0`), unique().on(t.orderId, t.bankReference)],
);
