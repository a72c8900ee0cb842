import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { type MeterUnit, meterUnits, type UsageTier } from "#domain/metering";
import { billingIntervals, subscriptionChangeKinds, subscriptionEndReasons } from "#domain/subscriptions";
import { user } from "#server/db/schema/auth";
import { money, products } from "#server/db/schema/catalog";
import { orderItems, orders } from "#server/db/schema/orders";
import { paymentMethods } from "#server/db/schema/payment-methods";

/**
 * A plan of a recurring product (decision 0027): what a subscription to it costs per interval, flat or
 * per seat within a seat range, and its free trial. The first live plan by `position` is the product's
 * listed price and pricing unit, kept in step by the plan editor. A plan with subscribers is archived,
 * never deleted, so what they agreed to stays readable.
 */
export const productPlans = pgTable(
  "product_plans",
  {
    id: uuid().primaryKey().defaultRandom(),
    productId: uuid()
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    name: text().notNull(),
    interval: text({ enum: billingIntervals }).notNull(),
    price: money().notNull(),
    perSeat: boolean().notNull().default(false),
    minSeats: integer().notNull().default(1),
    maxSeats: integer().notNull().default(99),
    trialDays: integer().notNull().default(0),
    /** Whether starting its trial needs a saved card (charged when the trial converts). */
    trialNeedsCard: boolean().notNull().default(false),
    /** A metered plan's unit and graduated tiers (decision 0029): use billed in arrears; null otherwise. */
    meterUnit: text({ enum: meterUnits }).$type<MeterUnit>(),
    usageTiers: jsonb().$type<UsageTier[]>(),
    position: integer().notNull().default(0),
    archivedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("product_plans_interval", sql`${t.interval} in ('month', 'year')`),
    // Only a metered plan may have no fee: its buyers pay for use alone (pay as you go, decision 0029).
    check("product_plans_price", sql`${t.price} > 0 or ${t.meterUnit} is not null`),
    check(
      "product_plans_seats",
      sql`1 <= ${t.minSeats} and ${t.minSeats} <= ${t.maxSeats} and ${t.maxSeats} <= 99`,
    ),
    check("product_plans_trial", sql`${t.trialDays} between 0 and 90`),
    check("product_plans_meter", sql`(${t.meterUnit} is null) = (${t.usageTiers} is null)`),
    index().on(t.productId, t.position),
  ],
);

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
    /** The plan it was bought on; null for one bought before plans, or whose product is gone. */
    planId: uuid().references(() => productPlans.id, { onDelete: "set null" }),
    interval: text({ enum: billingIntervals }).notNull(),
    unitPrice: money().notNull(),
    quantity: integer().notNull(),
    /**
     * A price change announced to the buyer (`nextUnitPrice`) and the first renewal due date it applies
     * to, after the notice; the renewal that applies it makes it the `unitPrice`.
     */
    nextUnitPrice: money(),
    priceChangeAt: timestamp({ withTimezone: true }),
    /**
     * A free trial's end, and the first period's start: set only on a subscription that began with a
     * trial, which is the one trial its buyer gets of the product. No period is paid until it converts.
     */
    trialEndsAt: timestamp({ withTimezone: true }),
    /**
     * The fingerprint of the card a trial that needs one was started with: one trial per card per
     * product, whichever account it is saved on.
     */
    trialFingerprint: text(),
    /** When its seller's systems were told the trial ends soon (`subscription.trial_ending`), once. */
    trialEndingNoticeAt: timestamp({ withTimezone: true }),
    /** A metered subscription's terms of use, as agreed when it started (decision 0029); null otherwise. */
    meterUnit: text({ enum: meterUnits }).$type<MeterUnit>(),
    usageTiers: jsonb().$type<UsageTier[]>(),
    /** The buyer's cap on a period's use (USD, before tax); null for none. */
    spendingCap: money(),
    /** The saved method its renewals are charged to; null follows the buyer's default. */
    paymentMethodId: uuid().references(() => paymentMethods.id, { onDelete: "set null" }),
    anchor: timestamp({ withTimezone: true }).notNull(),
    /**
     * The period that starts at `anchor`: 0 until a change of interval starts its periods again from a
     * new anchor, whose first period keeps counting on from the periods before it. Boundary `n` (n ≥
     * `anchorPeriod`) is `addIntervals(anchor, interval, n - anchorPeriod)`.
     */
    anchorPeriod: integer().notNull().default(0),
    periodsPaid: integer().notNull().default(1),
    /** When the current period is paid for, the next renewal's due date; kept with `periodsPaid`. */
    paidThrough: timestamp({ withTimezone: true }).notNull(),
    /**
     * The period of the latest renewal claimed (`subscription_renewals`), set by the statement that writes
     * the claim; null before the first. The renewal job picks subscriptions where it differs from
     * `periodsPaid` (their next period is not claimed yet) through an index holding only those.
     */
    claimedPeriod: integer(),
    cancelAtPeriodEnd: boolean().notNull().default(false),
    /** Notices of the coming yearly renewal sent in the current period (30 and 7 days ahead); 0 again once it is paid. */
    renewalNoticesSent: integer().notNull().default(0),
    endedAt: timestamp({ withTimezone: true }),
    endReason: text({ enum: subscriptionEndReasons }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("subscriptions_interval", sql`${t.interval} in ('month', 'year')`),
    check("subscriptions_quantity", sql`${t.quantity} between 1 and 99`),
    check("subscriptions_periods_paid", sql`${t.periodsPaid} >= 0`),
    check("subscriptions_price_change", sql`(${t.nextUnitPrice} is null) = (${t.priceChangeAt} is null)`),
    // One trial per buyer per product, whatever became of it.
    uniqueIndex("subscriptions_one_trial").on(t.userId, t.productId).where(sql`${t.trialEndsAt} is not null`),
    // And one per card per product, for trials that need a card.
    uniqueIndex("subscriptions_one_trial_per_card")
      .on(t.productId, t.trialFingerprint)
      .where(sql`${t.trialFingerprint} is not null`),
    index().on(t.planId),
    check(
      "subscriptions_end_reason",
      sql`${t.endReason} is null or ${t.endReason} in ('cancelled', 'unpaid')`,
    ),
    check("subscriptions_ended", sql`(${t.endedAt} is null) = (${t.endReason} is null)`),
    check("subscriptions_meter", sql`(${t.meterUnit} is null) = (${t.usageTiers} is null)`),
    index().on(t.userId, t.createdAt),
    // The renewal job reads the live subscriptions by their due date.
    index("subscriptions_due_index").on(t.paidThrough).where(sql`${t.endedAt} is null`),
    // Its pick of renewals to invoice: live, not cancelling, next period unclaimed. A claim takes the row
    // out, so invoiced subscriptions are never read again while they wait to be paid.
    index("subscriptions_to_invoice_index")
      .on(t.paidThrough)
      .where(
        sql`${t.endedAt} is null and not ${t.cancelAtPeriodEnd} and ${t.claimedPeriod} is distinct from ${t.periodsPaid}`,
      ),
  ],
);

export const subscriptionChangeStatuses = ["awaiting_payment", "scheduled", "applied", "cancelled"] as const;

/**
 * A change of plan or seats the buyer committed after its preview (decision 0027), with what the preview
 * said: the terms before and after, and the credit, charge and amount due, in whole cents before tax.
 * `now` and `restart` changes with an amount due wait for their order (`orderId`) to be paid and are
 * applied by its delivery; `at_period_end` changes are `scheduled` and applied by the renewal that
 * starts the next period. At most one waits per subscription: a newer commit cancels it.
 */
export const subscriptionChanges = pgTable(
  "subscription_changes",
  {
    id: uuid().primaryKey().defaultRandom(),
    subscriptionId: uuid()
      .notNull()
      .references(() => subscriptions.id, { onDelete: "cascade" }),
    kind: text({ enum: subscriptionChangeKinds }).notNull(),
    status: text({ enum: subscriptionChangeStatuses }).notNull(),
    /** The moment the preview priced, which the commit presented. */
    pricedAt: timestamp({ withTimezone: true }).notNull(),
    /** The period it was priced in (`periodsPaid` then). */
    periodsPaid: integer().notNull(),
    fromPlanId: uuid().references(() => productPlans.id, { onDelete: "set null" }),
    fromInterval: text({ enum: billingIntervals }).notNull(),
    fromUnitPrice: money().notNull(),
    fromQuantity: integer().notNull(),
    toPlanId: uuid().references(() => productPlans.id, { onDelete: "set null" }),
    toInterval: text({ enum: billingIntervals }).notNull(),
    toUnitPrice: money().notNull(),
    toQuantity: integer().notNull(),
    creditCents: integer().notNull(),
    chargeCents: integer().notNull(),
    dueCents: integer().notNull(),
    /** When the new terms start: at once, or at the end of the period it was priced in. */
    effectiveAt: timestamp({ withTimezone: true }).notNull(),
    /** The order charging `dueCents` (with tax), for a change that costs something now. */
    orderId: uuid()
      .unique()
      .references(() => orders.id, { onDelete: "set null" }),
    appliedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("subscription_changes_kind", sql`${t.kind} in ('now', 'restart', 'at_period_end')`),
    check(
      "subscription_changes_status",
      sql`${t.status} in ('awaiting_payment', 'scheduled', 'applied', 'cancelled')`,
    ),
    check(
      "subscription_changes_amounts",
      sql`0 <= ${t.creditCents} and 0 <= ${t.dueCents} and ${t.dueCents} <= ${t.chargeCents}`,
    ),
    uniqueIndex("subscription_changes_one_waiting")
      .on(t.subscriptionId)
      .where(sql`${t.status} in ('awaiting_payment', 'scheduled')`),
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
    /** Off-session charges tried on its saved method: one when due, then one on each retry day. */
    chargesTried: integer().notNull().default(0),
    /** When India's pre-debit notice of its card charge was sent; the charge waits a day after it. */
    preDebitNoticeAt: timestamp({ withTimezone: true }),
    /**
     * A final bill (decision 0029): the use of an ended metered subscription's last periods, without a
     * fixed fee and without a period of its own. `periodIndex` is then the period after the last one
     * billed, which never starts; paying it extends nothing.
     */
    final: boolean().notNull().default(false),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique().on(t.subscriptionId, t.periodIndex),
    check("subscription_renewals_period", sql`${t.periodIndex} >= 0`),
  ],
);

/**
 * One report of use of a metered subscription by its seller (decision 0029), immutable: a correction is
 * a new record with a negative quantity and a reason. The seller's idempotency key makes a report sent
 * twice one record. `periodIndex` is the period its time of use falls in, which it counts toward.
 */
export const usageRecords = pgTable(
  "usage_records",
  {
    id: uuid().primaryKey().defaultRandom(),
    subscriptionId: uuid()
      .notNull()
      .references(() => subscriptions.id, { onDelete: "cascade" }),
    sellerId: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    periodIndex: integer().notNull(),
    quantity: bigint({ mode: "number" }).notNull(),
    usedAt: timestamp({ withTimezone: true }).notNull(),
    idempotencyKey: text().notNull(),
    reason: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique("usage_records_idempotency").on(t.sellerId, t.idempotencyKey),
    index().on(t.subscriptionId, t.periodIndex),
    check("usage_records_quantity", sql`${t.quantity} <> 0`),
    check("usage_records_correction", sql`${t.quantity} > 0 or ${t.reason} is not null`),
  ],
);

/**
 * A metered subscription's use per period: the running sum of its records, kept by the statement that
 * adds them (so concurrent reports add up under the row's lock), the spending-cap alerts sent in it (0 to
 * 3: 50%, 80%, 100%), and once the period is rated, when and on which renewal order. A rated period
 * takes no more records.
 */
export const usagePeriods = pgTable(
  "usage_periods",
  {
    subscriptionId: uuid()
      .notNull()
      .references(() => subscriptions.id, { onDelete: "cascade" }),
    periodIndex: integer().notNull(),
    quantity: bigint({ mode: "number" }).notNull().default(0),
    alertsSent: integer().notNull().default(0),
    ratedAt: timestamp({ withTimezone: true }),
    orderId: uuid().references(() => orders.id, { onDelete: "set null" }),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.subscriptionId, t.periodIndex] }),
    check("usage_periods_quantity", sql`${t.quantity} >= 0`),
    check("usage_periods_alerts", sql`${t.alertsSent} between 0 and 3`),
    // The final bills' pick: periods not rated yet (each live subscription's current one, and those of
    // ended subscriptions waiting for their final bill).
    index("usage_periods_unrated_index").on(t.subscriptionId).where(sql`${t.ratedAt} is null`),
  ],
);
