import { sql } from "drizzle-orm";
import { boolean, check, index, integer, pgTable, text, timestamp, unique, uuid } from "drizzle-orm/pg-core";
import { billingIntervals, subscriptionEndReasons } from "#domain/subscriptions";
import { user } from "#server/db/schema/auth";
import { money, products } from "#server/db/schema/catalog";
import { orderItems, orders } from "#server/db/schema/orders";

/**
 * A subscription (decision 0027): started by the delivery of an order item priced per month, per year or
 * per user per month, and renewed by orders the renewal job makes. Its periods are counted from
 * `anchor`; `periodsPaid` of them are paid for, so it is paid through the `periodsPaid`-th boundary. The
 * terms (interval, unit price, quantity) are those agreed when it started: a later price of the product
 * does not change them.
 */
export const subscriptions = pgTable(
  "subscriptions",
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    productId: uuid().references(() => products.id, { onDelete: "set null" }),
    /** The order item that started it: one subscription per item, whatever the number of deliveries. */
    orderItemId: uuid()
      .notNull()
      .unique()
      .references(() => orderItems.id, { onDelete: "cascade" }),
    orderId: uuid()
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    interval: text({ enum: billingIntervals }).notNull(),
    unitPrice: money().notNull(),
    quantity: integer().notNull(),
    anchor: timestamp({ withTimezone: true }).notNull(),
    periodsPaid: integer().notNull().default(1),
    /** When the current period is paid for, the next renewal's due date; kept with `periodsPaid`. */
    paidThrough: timestamp({ withTimezone: true }).notNull(),
    cancelAtPeriodEnd: boolean().notNull().default(false),
    endedAt: timestamp({ withTimezone: true }),
    endReason: text({ enum: subscriptionEndReasons }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("subscriptions_interval", sql`${t.interval} in ('month', 'year')`),
    check("subscriptions_quantity", sql`${t.quantity} between 1 and 99`),
    check("subscriptions_periods_paid", sql`${t.periodsPaid} >= 1`),
    check(
      "subscriptions_end_reason",
      sql`${t.endReason} is null or ${t.endReason} in ('cancelled', 'unpaid')`,
    ),
    check("subscriptions_ended", sql`(${t.endedAt} is null) = (${t.endReason} is null)`),
    index().on(t.userId, t.createdAt),
    // The renewal job reads the live subscriptions by their due date.
    index("subscriptions_due_index").on(t.paidThrough).where(sql`${t.endedAt} is null`),
  ],
);

/**
 * One renewal: the claim on period `periodIndex` of a subscription (unique, so a period is invoiced once
 * across instances and crashes), written in the same transaction as the order that pays it.
 * `remindersSent` counts the reminders of an unpaid renewal after its due date.
 */
export const subscriptionRenewals = pgTable(
  "subscription_renewals",
  {
    id: uuid().primaryKey().defaultRandom(),
    subscriptionId: uuid()
      .notNull()
      .references(() => subscriptions.id, { onDelete: "cascade" }),
    periodIndex: integer().notNull(),
    orderId: uuid()
      .notNull()
      .unique()
      .references(() => orders.id, { onDelete: "cascade" }),
    dueAt: timestamp({ withTimezone: true }).notNull(),
    remindersSent: integer().notNull().default(0),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique().on(t.subscriptionId, t.periodIndex),
    check("subscription_renewals_period", sql`${t.periodIndex} >= 1`),
  ],
);
