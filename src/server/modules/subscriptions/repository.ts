import { and, asc, desc, eq, inArray, isNull, lte, or, sql } from "drizzle-orm";
import type { BillingInterval } from "#domain/subscriptions";
import { type Db, rowsOf, type Transaction } from "#server/db/client";
import { licenses } from "#server/db/schema/after-sale";
import { products } from "#server/db/schema/catalog";
import { orderItems, orders } from "#server/db/schema/orders";
import { paymentMethods } from "#server/db/schema/payment-methods";
import {
  productPlans,
  subscriptionChanges,
  subscriptionRenewals,
  subscriptions,
  usagePeriods,
} from "#server/db/schema/subscriptions";

export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type NewSubscription = typeof subscriptions.$inferInsert;
export type ChangeRow = typeof subscriptionChanges.$inferSelect;
export type NewChange = typeof subscriptionChanges.$inferInsert;

/** Payment states of a renewal order that may still be paid (a failed attempt is tried again). */
const UNPAID = ["pending", "processing", "failed"] as const;

/** The recurring items of an order: priced per month, per year or per user per month. */
export async function recurringItemsOf(tx: Transaction, orderId: string) {
  return tx
    .select({
      id: orderItems.id,
      productId: orderItems.productId,
      price: orderItems.price,
      quantity: orderItems.quantity,
      pricingUnit: orderItems.pricingUnit,
      planId: orderItems.planId,
      recurringPrice: orderItems.recurringPrice,
      trialDays: orderItems.trialDays,
      /** The saved method chosen at checkout, and its card's fingerprint (one trial per card). */
      savedMethodId: orders.savedMethodId,
      fingerprint: paymentMethods.fingerprint,
      /** A metered plan's terms of use, which its subscription keeps (decision 0029). */
      meterUnit: productPlans.meterUnit,
      usageTiers: productPlans.usageTiers,
    })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .leftJoin(paymentMethods, eq(paymentMethods.id, orders.savedMethodId))
    .leftJoin(productPlans, eq(productPlans.id, orderItems.planId))
    .where(
      and(
        eq(orderItems.orderId, orderId),
        inArray(orderItems.pricingUnit, ["month", "year", "user_month", "user_year"]),
      ),
    );
}

/** Starts subscriptions; an item that already started one (a delivery repeated) keeps it. */
export async function insertSubscriptions(tx: Transaction, rows: NewSubscription[]): Promise<void> {
  if (rows.length === 0) return;
  await tx.insert(subscriptions).values(rows).onConflictDoNothing({ target: subscriptions.orderItemId });
}

/**
 * Starts a subscription with a free trial, unless its item started one already or its buyer has had a
 * trial of the product (the one-trial index): false then, and nothing is written.
 */
export async function insertTrial(tx: Transaction, row: NewSubscription): Promise<boolean> {
  const inserted = await tx
    .insert(subscriptions)
    .values(row)
    .onConflictDoNothing()
    .returning({ id: subscriptions.id });
  return inserted.length > 0;
}

/** Whether an order item started a subscription. */
export async function itemStartedSubscription(tx: Transaction, orderItemId: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(eq(subscriptions.orderItemId, orderItemId));
  return row !== undefined;
}

/**
 * A paid renewal that fell due at `dueAt` made an announced price the subscription's price: it is kept
 * as the agreed one from then on, and the announcement is done.
 */
export async function adoptAnnouncedPrice(tx: Transaction, subscriptionId: string, dueAt: Date, now: Date) {
  await tx
    .update(subscriptions)
    .set({
      unitPrice: sql`${subscriptions.nextUnitPrice}`,
      nextUnitPrice: null,
      priceChangeAt: null,
      updatedAt: now,
    })
    .where(and(eq(subscriptions.id, subscriptionId), lte(subscriptions.priceChangeAt, dueAt)));
}

/** The renewal an order pays, if it is one, with its subscription. */
export async function renewalOfOrder(tx: Db, orderId: string) {
  const [row] = await tx
    .select({ renewal: subscriptionRenewals, subscription: subscriptions, originCreatedAt: orders.createdAt })
    .from(subscriptionRenewals)
    .innerJoin(subscriptions, eq(subscriptions.id, subscriptionRenewals.subscriptionId))
    .innerJoin(orders, eq(orders.id, subscriptions.orderId))
    .where(eq(subscriptionRenewals.orderId, orderId));
  return row ?? null;
}

/**
 * Records a paid period: paid through `paidThrough` now, unless a later period was already paid. Paying a
 * renewal is wanting it: a cancellation for the period's end is undone.
 */
export async function recordPaidPeriod(
  tx: Transaction,
  subscriptionId: string,
  periodsPaid: number,
  paidThrough: Date,
  now: Date,
): Promise<boolean> {
  const moved = await tx
    .update(subscriptions)
    .set({ periodsPaid, paidThrough, cancelAtPeriodEnd: false, renewalNoticesSent: 0, updatedAt: now })
    .where(
      and(
        eq(subscriptions.id, subscriptionId),
        isNull(subscriptions.endedAt),
        sql`${subscriptions.periodsPaid} < ${periodsPaid}`,
      ),
    )
    .returning({ id: subscriptions.id });
  return moved.length > 0;
}

/** Sets when the active licences of a subscription's item stop renewing: the end of the paid period. */
export async function setLicensesRenewAt(tx: Transaction, orderItemId: string, renewsAt: Date) {
  await tx
    .update(licenses)
    .set({ renewsAt })
    .where(and(eq(licenses.orderItemId, orderItemId), eq(licenses.status, "active")));
}

/** Revokes the active licences of an ended subscription's item; answers their ids. */
export async function revokeLicensesOf(tx: Transaction, orderItemId: string, now: Date): Promise<string[]> {
  const revoked = await tx
    .update(licenses)
    .set({ status: "revoked", revokedAt: now })
    .where(and(eq(licenses.orderItemId, orderItemId), eq(licenses.status, "active")))
    .returning({ id: licenses.id });
  return revoked.map((row) => row.id);
}

/**
 * A buyer's subscriptions (or the one of them with `id`), newest first, each with what it was bought as
 * and the tax rate of the order that started it.
 */
export async function subscriptionsOfUser(db: Db, userId: string, id?: string) {
  return db
    .select({
      subscription: subscriptions,
      productName: orderItems.productName,
      imageUrl: orderItems.imageUrl,
      vendor: orderItems.vendor,
      taxRate: orders.taxRate,
      planName: productPlans.name,
    })
    .from(subscriptions)
    .innerJoin(orderItems, eq(orderItems.id, subscriptions.orderItemId))
    .innerJoin(orders, eq(orders.id, subscriptions.orderId))
    .leftJoin(productPlans, eq(productPlans.id, subscriptions.planId))
    .where(and(eq(subscriptions.userId, userId), id === undefined ? undefined : eq(subscriptions.id, id)))
    .orderBy(desc(subscriptions.createdAt), desc(subscriptions.id));
}

/** One subscription of a buyer (null when it is someone else's or does not exist). */
export async function subscriptionOfUser(db: Db, userId: string, id: string) {
  const [row] = await subscriptionsOfUser(db, userId, id);
  return row ?? null;
}

/** The active licence keys of each of these subscription items. */
export async function licenseKeysOf(db: Db, orderItemIds: string[]): Promise<Map<string, string[]>> {
  const keys = new Map<string, string[]>();
  if (orderItemIds.length === 0) return keys;
  const rows = await db
    .select({ orderItemId: licenses.orderItemId, key: licenses.key })
    .from(licenses)
    .where(and(inArray(licenses.orderItemId, orderItemIds), eq(licenses.status, "active")))
    .orderBy(asc(licenses.issuedAt), asc(licenses.key));
  for (const row of rows) keys.set(row.orderItemId, [...(keys.get(row.orderItemId) ?? []), row.key]);
  return keys;
}

/**
 * The unpaid renewal of each of these subscriptions (at most one: the next period's, or, once a metered
 * subscription has ended, the final bill of its use).
 */
export async function unpaidRenewalsOf(db: Db, subscriptionIds: string[]) {
  const due = new Map<
    string,
    { id: string; orderId: string; total: string; dueAt: Date; remindersSent: number; final: boolean }
  >();
  if (subscriptionIds.length === 0) return due;
  const rows = await db
    .select({
      id: subscriptionRenewals.id,
      subscriptionId: subscriptionRenewals.subscriptionId,
      periodIndex: subscriptionRenewals.periodIndex,
      orderId: subscriptionRenewals.orderId,
      dueAt: subscriptionRenewals.dueAt,
      remindersSent: subscriptionRenewals.remindersSent,
      final: subscriptionRenewals.final,
      total: orders.totalAmount,
    })
    .from(subscriptionRenewals)
    .innerJoin(orders, eq(orders.id, subscriptionRenewals.orderId))
    .innerJoin(subscriptions, eq(subscriptions.id, subscriptionRenewals.subscriptionId))
    .where(
      and(
        inArray(subscriptionRenewals.subscriptionId, subscriptionIds),
        // The next period's renewal, or the final bill of an ended metered subscription's use.
        or(
          eq(subscriptionRenewals.periodIndex, subscriptions.periodsPaid),
          eq(subscriptionRenewals.final, true),
        ),
        inArray(orders.paymentStatus, [...UNPAID]),
        isNull(orders.cancelledAt),
      ),
    );
  for (const row of rows) due.set(row.subscriptionId, row);
  return due;
}

/** The unpaid final bills of a buyer's ended metered subscriptions (decision 0029). */
export async function unpaidFinalBillsOfUser(db: Db, userId: string) {
  return db
    .select({ orderId: subscriptionRenewals.orderId })
    .from(subscriptionRenewals)
    .innerJoin(subscriptions, eq(subscriptions.id, subscriptionRenewals.subscriptionId))
    .innerJoin(orders, eq(orders.id, subscriptionRenewals.orderId))
    .where(
      and(
        eq(subscriptions.userId, userId),
        eq(subscriptionRenewals.final, true),
        inArray(orders.paymentStatus, [...UNPAID]),
        isNull(orders.cancelledAt),
      ),
    );
}

/** Sets whether a live subscription of this buyer ends at its period's end; null when none matched. */
export async function setCancelAtPeriodEnd(
  db: Db,
  userId: string,
  id: string,
  cancel: boolean,
  now: Date,
): Promise<boolean> {
  const rows = await db
    .update(subscriptions)
    .set({ cancelAtPeriodEnd: cancel, updatedAt: now })
    .where(and(eq(subscriptions.id, id), eq(subscriptions.userId, userId), isNull(subscriptions.endedAt)))
    .returning({ id: subscriptions.id });
  return rows.length > 0;
}

/**
 * Live subscriptions whose next renewal is to be invoiced by `until`, oldest due first, locked for this
 * run. It reads `subscriptions_to_invoice_index`, which holds only subscriptions whose next period is
 * not claimed (`claimed_period` is not `periods_paid`; its conditions are written here as in the index,
 * for the planner to match them): a claimed period leaves the index, so however many renewals a pass
 * has invoiced, the next pick reads only rows still to invoice. The claim row itself stays the rule:
 * a subscription with a claim for its next period is never taken, whatever `claimed_period` says.
 */
export async function subscriptionsToInvoice(
  tx: Transaction,
  until: Record<BillingInterval | "metered", Date>,
  limit: number,
) {
  const latest = new Date(Math.max(until.year.getTime(), until.month.getTime()));
  return tx
    .select()
    .from(subscriptions)
    .where(
      and(
        sql`${subscriptions.endedAt} is null and not ${subscriptions.cancelAtPeriodEnd} and ${subscriptions.claimedPeriod} is distinct from ${subscriptions.periodsPaid}`,
        // Bounds the index scan, so a pass that has invoiced every due renewal stops there.
        lte(subscriptions.paidThrough, latest),
        // A yearly renewal's lead time is the year's, but the first period after a trial (none paid yet)
        // takes the month's (`RENEWAL_INVOICE_LEAD_DAYS`).
        sql`${subscriptions.paidThrough} <= case when ${subscriptions.interval} = 'year' and ${subscriptions.periodsPaid} > 0 then ${until.year.toISOString()}::timestamptz else ${until.month.toISOString()}::timestamptz end`,
        // A metered period is billed in arrears: its renewal waits for the period's end and its grace.
        sql`(${subscriptions.meterUnit} is null or ${subscriptions.paidThrough} <= ${until.metered.toISOString()}::timestamptz)`,
        // Checked row by row, on the claims' unique index: `offset 0` keeps the planner from turning it
        // into an anti-join, which reads every claim ever made once its statistics say most are claimed.
        sql`not exists (select 1 from ${subscriptionRenewals} r where r.subscription_id = ${subscriptions.id} and r.period_index = ${subscriptions.periodsPaid} offset 0)`,
      ),
    )
    .orderBy(asc(subscriptions.paidThrough))
    .limit(limit)
    .for("update", { skipLocked: true });
}

/**
 * Live subscriptions that renew on a saved bank-transfer method and whose next renewal, unclaimed, falls
 * due by `until`: invoiced earlier than the usual lead, so the buyer has the pro-forma invoice and the
 * transfer instructions that many business days ahead. Read from the few bank-transfer methods, so the
 * pass costs nothing where none is saved; locked as `subscriptionsToInvoice` locks its set.
 */
export async function transferRenewalsToInvoice(
  tx: Transaction,
  until: Date,
  /** Metered subscriptions are invoiced only once their period and its grace have passed. */
  meteredUntil: Date,
  limit: number,
) {
  const rows = await tx
    .select({ subscription: subscriptions })
    .from(paymentMethods)
    .innerJoin(
      subscriptions,
      and(eq(subscriptions.userId, paymentMethods.userId), renewsOn("subscriptions", "payment_methods")),
    )
    .where(
      and(
        eq(paymentMethods.kind, "bank_transfer"),
        isNull(paymentMethods.removedAt),
        sql`${subscriptions.endedAt} is null and not ${subscriptions.cancelAtPeriodEnd} and ${subscriptions.claimedPeriod} is distinct from ${subscriptions.periodsPaid}`,
        lte(subscriptions.paidThrough, until),
        sql`(${subscriptions.meterUnit} is null or ${subscriptions.paidThrough} <= ${meteredUntil.toISOString()}::timestamptz)`,
        sql`not exists (select 1 from ${subscriptionRenewals} r where r.subscription_id = ${subscriptions.id} and r.period_index = ${subscriptions.periodsPaid})`,
      ),
    )
    .orderBy(asc(subscriptions.paidThrough))
    .limit(limit)
    .for("update", { of: subscriptions, skipLocked: true });
  return rows.map((row) => row.subscription);
}

/**
 * Claims renewals, one per (subscription, period), in one statement that also sets each claimed
 * subscription's `claimed_period`; answers the subscriptions claimed now (a period claimed already, by
 * another instance or an earlier run, is left as it was and not answered).
 */
export async function claimRenewals(
  tx: Transaction,
  claims: readonly {
    subscriptionId: string;
    periodIndex: number;
    orderId: string;
    dueAt: Date;
    /** A final bill of an ended metered subscription's use (decision 0029). */
    final?: boolean;
  }[],
  now: Date,
): Promise<Set<string>> {
  if (claims.length === 0) return new Set();
  const column = <T>(value: (claim: (typeof claims)[number]) => T) => sql.param(claims.map(value));
  const rows = await rowsOf<{ id: string }>(
    tx,
    sql`with claimed as (
      insert into ${subscriptionRenewals} (subscription_id, period_index, order_id, due_at, final, created_at)
      select v.subscription_id, v.period_index, v.order_id, v.due_at, v.final, ${now.toISOString()}::timestamptz
      from unnest(${column((c) => c.subscriptionId)}::uuid[], ${column((c) => c.periodIndex)}::int[],
        ${column((c) => c.orderId)}::uuid[], ${column((c) => c.dueAt.toISOString())}::timestamptz[],
        ${column((c) => c.final ?? false)}::boolean[])
        as v(subscription_id, period_index, order_id, due_at, final)
      on conflict (subscription_id, period_index) do nothing
      returning subscription_id, period_index
    )
    update ${subscriptions} set claimed_period = claimed.period_index from claimed
    where ${subscriptions.id} = claimed.subscription_id
    returning ${subscriptions.id} as id`,
  );
  return new Set(rows.map((r) => r.id));
}

/** The order a subscription started from, for its renewal to copy the buyer, tax and payment method. */
export async function originOrder(tx: Db, orderId: string) {
  const [row] = await tx.select().from(orders).where(eq(orders.id, orderId));
  return row ?? null;
}

export async function originItem(tx: Db, orderItemId: string) {
  const [row] = await tx.select().from(orderItems).where(eq(orderItems.id, orderItemId));
  return row ?? null;
}

/** What a batch of renewals reads of the orders their subscriptions started from, by id. */
export async function originOrders(tx: Db, orderIds: readonly string[]) {
  const ids = [...new Set(orderIds)];
  const rows = await tx
    .select({
      id: orders.id,
      taxRate: orders.taxRate,
      paymentMethod: orders.paymentMethod,
      customerInfo: orders.customerInfo,
    })
    .from(orders)
    .where(ids.length === 0 ? sql`false` : inArray(orders.id, ids));
  return new Map(rows.map((row) => [row.id, row]));
}

/** What a batch of renewals reads of the order items their subscriptions started from, by id. */
export async function originItems(tx: Db, orderItemIds: readonly string[]) {
  const ids = [...new Set(orderItemIds)];
  const rows = await tx
    .select({ id: orderItems.id, productName: orderItems.productName })
    .from(orderItems)
    .where(ids.length === 0 ? sql`false` : inArray(orderItems.id, ids));
  return new Map(rows.map((row) => [row.id, row]));
}

/** Live subscriptions cancelled for their period's end, that end has come. */
export async function cancelledToEnd(tx: Transaction, now: Date, limit: number) {
  return tx
    .select()
    .from(subscriptions)
    .where(
      and(
        isNull(subscriptions.endedAt),
        eq(subscriptions.cancelAtPeriodEnd, true),
        lte(subscriptions.paidThrough, now),
      ),
    )
    .limit(limit)
    .for("update", { skipLocked: true });
}

/** Renewals whose due date has passed unpaid, with their subscription, locked for this run. */
/**
 * Renewals past their due date unpaid whose next step is due: the reminder of the next retry day, or
 * the end on the last (`retryDays`, days after the due date; `remindersSent` of them are done). Only
 * rows with something to do are taken, so renewals waiting for a later retry day never hold up others.
 */
export async function overdueRenewals(
  tx: Transaction,
  now: Date,
  retryDays: readonly number[],
  limit: number,
) {
  const days = sql.raw(`array[${retryDays.map((d) => Math.trunc(Number(d))).join(",")}]::int[]`);
  return tx
    .select({ renewal: subscriptionRenewals, subscription: subscriptions, orderStatus: orders.paymentStatus })
    .from(subscriptionRenewals)
    .innerJoin(subscriptions, eq(subscriptions.id, subscriptionRenewals.subscriptionId))
    .innerJoin(orders, eq(orders.id, subscriptionRenewals.orderId))
    .where(
      and(
        // A live subscription's next renewal, or an ended metered one's final bill (reminded, never ended).
        or(
          and(isNull(subscriptions.endedAt), eq(subscriptionRenewals.periodIndex, subscriptions.periodsPaid)),
          eq(subscriptionRenewals.final, true),
        ),
        lte(subscriptionRenewals.dueAt, now),
        sql`${subscriptionRenewals.dueAt} + make_interval(days => (${days})[${subscriptionRenewals.remindersSent} + 1]) <= ${now.toISOString()}::timestamptz`,
        inArray(orders.paymentStatus, [...UNPAID]),
        isNull(orders.cancelledAt),
      ),
    )
    .orderBy(asc(subscriptionRenewals.dueAt))
    .limit(limit)
    .for("update", { of: subscriptions, skipLocked: true });
}

export async function setRemindersSent(tx: Transaction, renewalId: string, remindersSent: number) {
  await tx.update(subscriptionRenewals).set({ remindersSent }).where(eq(subscriptionRenewals.id, renewalId));
}

export async function endSubscription(
  tx: Transaction,
  id: string,
  endedAt: Date,
  endReason: "cancelled" | "unpaid",
) {
  await tx
    .update(subscriptions)
    .set({ endedAt, endReason, updatedAt: endedAt })
    .where(and(eq(subscriptions.id, id), isNull(subscriptions.endedAt)));
}

/**
 * Unpaid orders of a subscription that no longer fall due (a renewal of an ended subscription, a change
 * given up): failed and cancelled, so they are not paid again. Paid ones are left as they are.
 */
export async function cancelUnpaidOrders(tx: Transaction, orderIds: readonly string[], now: Date) {
  if (orderIds.length === 0) return;
  await tx
    .update(orders)
    .set({ paymentStatus: "failed", isPaid: false, cancelledAt: now, updatedAt: now })
    .where(and(inArray(orders.id, [...orderIds]), inArray(orders.paymentStatus, [...UNPAID])));
}

/** The buyer's e-mail and name, for a renewal's messages. */
export async function buyerContact(tx: Db, orderId: string) {
  const [row] = await tx
    .select({ customerInfo: orders.customerInfo })
    .from(orders)
    .where(eq(orders.id, orderId));
  return row?.customerInfo ?? null;
}

/** Ends every live subscription of a buyer at `now` (their account is being deleted); answers their ids. */
export async function endAllOfUser(tx: Transaction, userId: string, now: Date): Promise<SubscriptionRow[]> {
  return tx
    .update(subscriptions)
    .set({ endedAt: now, endReason: "cancelled", cancelAtPeriodEnd: true, updatedAt: now })
    .where(and(eq(subscriptions.userId, userId), isNull(subscriptions.endedAt)))
    .returning();
}

/** The change waiting (for payment or for its period's end) of each of these subscriptions, with its plan's name. */
export async function waitingChangesOf(db: Db, subscriptionIds: readonly string[]) {
  const waiting = new Map<string, ChangeRow & { planName: string | null; perSeat: boolean }>();
  if (subscriptionIds.length === 0) return waiting;
  const rows = await db
    .select({ change: subscriptionChanges, planName: productPlans.name, perSeat: productPlans.perSeat })
    .from(subscriptionChanges)
    .leftJoin(productPlans, eq(productPlans.id, subscriptionChanges.toPlanId))
    .where(
      and(
        inArray(subscriptionChanges.subscriptionId, [...subscriptionIds]),
        inArray(subscriptionChanges.status, ["awaiting_payment", "scheduled"]),
      ),
    );
  for (const { change, planName, perSeat } of rows)
    waiting.set(change.subscriptionId, { ...change, planName, perSeat: perSeat ?? true });
  return waiting;
}

/** A buyer's subscription locked for a change of its terms; null when it is someone else's or absent. */
export async function lockSubscriptionOfUser(tx: Transaction, userId: string, id: string) {
  const [row] = await tx
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.id, id), eq(subscriptions.userId, userId)))
    .for("update");
  return row ?? null;
}

/**
 * Cancels the waiting changes of these subscriptions (by default any: a newer commit replaces one; a
 * renewal invoiced at the old terms ends only those `awaiting_payment`), with the unpaid orders of those
 * that charge something now.
 */
export async function cancelWaitingChanges(
  tx: Transaction,
  subscriptionIds: readonly string[],
  now: Date,
  statuses: readonly ("awaiting_payment" | "scheduled")[] = ["awaiting_payment", "scheduled"],
) {
  if (subscriptionIds.length === 0) return;
  const cancelled = await tx
    .update(subscriptionChanges)
    .set({ status: "cancelled" })
    .where(
      and(
        inArray(subscriptionChanges.subscriptionId, [...subscriptionIds]),
        inArray(subscriptionChanges.status, [...statuses]),
      ),
    )
    .returning({ orderId: subscriptionChanges.orderId });
  await cancelUnpaidOrders(
    tx,
    cancelled.flatMap((row) => (row.orderId ? [row.orderId] : [])),
    now,
  );
}

export async function insertChange(tx: Transaction, row: NewChange): Promise<ChangeRow> {
  const [inserted] = await tx.insert(subscriptionChanges).values(row).returning();
  if (!inserted) throw new Error("the change was not recorded");
  return inserted;
}

export async function setChangeOrder(tx: Transaction, changeId: string, orderId: string) {
  await tx.update(subscriptionChanges).set({ orderId }).where(eq(subscriptionChanges.id, changeId));
}

/** The change an order pays, if it is one, with its subscription locked. */
export async function changeOfOrder(tx: Transaction, orderId: string) {
  const [row] = await tx
    .select({ change: subscriptionChanges, subscription: subscriptions })
    .from(subscriptionChanges)
    .innerJoin(subscriptions, eq(subscriptions.id, subscriptionChanges.subscriptionId))
    .where(eq(subscriptionChanges.orderId, orderId))
    .for("update", { of: subscriptions });
  return row ?? null;
}

/** The change scheduled to start with the period that begins at `dueAt`, if any. */
export async function scheduledChangeAt(tx: Transaction, subscriptionId: string, dueAt: Date) {
  const [row] = await tx
    .select()
    .from(subscriptionChanges)
    .where(
      and(
        eq(subscriptionChanges.subscriptionId, subscriptionId),
        eq(subscriptionChanges.status, "scheduled"),
        eq(subscriptionChanges.effectiveAt, dueAt),
      ),
    );
  return row ?? null;
}

/**
 * Puts a change's terms in effect: its plan, price per unit and seats, and its interval. A new plan ends
 * the old one's announced price. `restart` (monthly to yearly) also starts its periods again from
 * `anchor`, period `anchorPeriod`, paid through `paidThrough`. The change is marked applied.
 */
export async function applyChangeTerms(
  tx: Transaction,
  change: ChangeRow,
  now: Date,
  restart?: { anchor: Date; anchorPeriod: number; periodsPaid: number; paidThrough: Date },
) {
  const newPlan = change.toPlanId !== change.fromPlanId;
  await tx
    .update(subscriptions)
    .set({
      planId: change.toPlanId,
      interval: change.toInterval,
      unitPrice: change.toUnitPrice,
      quantity: change.toQuantity,
      ...(newPlan ? { nextUnitPrice: null, priceChangeAt: null } : {}),
      ...(restart ? { ...restart, renewalNoticesSent: 0 } : {}),
      updatedAt: now,
    })
    .where(eq(subscriptions.id, change.subscriptionId));
  await tx
    .update(subscriptionChanges)
    .set({ status: "applied", appliedAt: now })
    .where(eq(subscriptionChanges.id, change.id));
}

/**
 * Moves a subscription's periods to a new anchor (a change of interval at a renewal): period
 * `anchorPeriod` starts at `anchor`, in the new interval.
 */
export async function setAnchor(tx: Transaction, subscriptionId: string, anchor: Date, anchorPeriod: number) {
  await tx.update(subscriptions).set({ anchor, anchorPeriod }).where(eq(subscriptions.id, subscriptionId));
}

/** A live plan of a product, or the plan a subscription is on (which may be archived since). */
export async function planForChange(db: Db, productId: string, planId: string, currentPlanId: string | null) {
  const [row] = await db
    .select()
    .from(productPlans)
    .where(
      and(
        eq(productPlans.id, planId),
        eq(productPlans.productId, productId),
        planId === currentPlanId ? undefined : isNull(productPlans.archivedAt),
      ),
    );
  return row ?? null;
}

export async function subscriptionRowsById(db: Db, ids: readonly string[]): Promise<SubscriptionRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(subscriptions)
    .where(inArray(subscriptions.id, [...ids]));
}

/**
 * The subscription an order item paid for, and how: the item that started it, a renewal's line, or a
 * change's line (with the change); null for any other item.
 */
export async function subscriptionOfPaidItem(tx: Transaction, orderItemId: string) {
  const [started] = await tx.select().from(subscriptions).where(eq(subscriptions.orderItemId, orderItemId));
  if (started) return { subscription: started, paidBy: "start" as const, change: null };
  const [renewal] = await tx
    .select({ subscription: subscriptions })
    .from(orderItems)
    .innerJoin(subscriptionRenewals, eq(subscriptionRenewals.orderId, orderItems.orderId))
    .innerJoin(subscriptions, eq(subscriptions.id, subscriptionRenewals.subscriptionId))
    .where(eq(orderItems.id, orderItemId));
  if (renewal) return { subscription: renewal.subscription, paidBy: "renewal" as const, change: null };
  const [changed] = await tx
    .select({ subscription: subscriptions, change: subscriptionChanges })
    .from(orderItems)
    .innerJoin(subscriptionChanges, eq(subscriptionChanges.orderId, orderItems.orderId))
    .innerJoin(subscriptions, eq(subscriptions.id, subscriptionChanges.subscriptionId))
    .where(eq(orderItems.id, orderItemId));
  if (changed) return { ...changed, paidBy: "change" as const };
  return null;
}

/** Takes back a refunded change: the terms before it, for the rest of the period. */
export async function revertChange(tx: Transaction, change: ChangeRow, now: Date) {
  await tx
    .update(subscriptions)
    .set({
      planId: change.fromPlanId,
      interval: change.fromInterval,
      unitPrice: change.fromUnitPrice,
      quantity: change.fromQuantity,
      updatedAt: now,
    })
    .where(eq(subscriptions.id, change.subscriptionId));
  await tx
    .update(subscriptionChanges)
    .set({ status: "cancelled" })
    .where(eq(subscriptionChanges.id, change.id));
}

/**
 * Stops every live subscription to a seller's products from renewing (the seller is leaving): each runs
 * to its period's end. Answers them, with their buyer's contact and the product's name as bought.
 */
export async function stopRenewalsOfSeller(tx: Transaction, sellerId: string, now: Date) {
  const stopped = await tx
    .update(subscriptions)
    .set({ cancelAtPeriodEnd: true, updatedAt: now })
    .where(
      and(
        isNull(subscriptions.endedAt),
        inArray(
          subscriptions.productId,
          tx.select({ id: products.id }).from(products).where(eq(products.sellerId, sellerId)),
        ),
      ),
    )
    .returning();
  if (stopped.length === 0) return [];
  const contacts = await tx
    .select({ id: orderItems.id, productName: orderItems.productName, customerInfo: orders.customerInfo })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .where(
      inArray(
        orderItems.id,
        stopped.map((s) => s.orderItemId),
      ),
    );
  const byItem = new Map(contacts.map((c) => [c.id, c]));
  return stopped.map((subscription) => ({
    subscription,
    contact: byItem.get(subscription.orderItemId) ?? null,
  }));
}

/**
 * Brings back a subscription that ended unpaid (its renewal was paid after all): live again, renewing,
 * and the keys its end revoked working again. Answers whether it came back.
 */
export async function reviveUnpaidSubscription(tx: Transaction, subscription: SubscriptionRow, now: Date) {
  const revived = await tx
    .update(subscriptions)
    .set({ endedAt: null, endReason: null, cancelAtPeriodEnd: false, updatedAt: now })
    .where(and(eq(subscriptions.id, subscription.id), eq(subscriptions.endReason, "unpaid")))
    .returning({ id: subscriptions.id });
  if (revived.length === 0) return false;
  await tx
    .update(licenses)
    .set({ status: "active", revokedAt: null })
    .where(and(eq(licenses.orderItemId, subscription.orderItemId), eq(licenses.status, "revoked")));
  return true;
}

/**
 * The one rule of which saved method a subscription renews on (decision 0027): its own choice, or, without
 * one, its buyer's default. `s` and `pm` name the subscriptions and payment_methods rows of the statement
 * (a table or an alias); they are written out because drizzle leaves a column unqualified when a select
 * reads one table, and inside a subquery that would name another row.
 */
export const renewsOn = (s: "subscriptions" | "s", pm: "payment_methods" | "pm") =>
  sql.raw(`(${pm}.id = ${s}.payment_method_id or (${s}.payment_method_id is null and ${pm}.is_default))`);

/** The method each subscription renews on: its own, or its buyer's default; live ones only. */
export async function effectiveMethodsOf(
  db: Db,
  subscriptionIds: readonly string[],
): Promise<Map<string, typeof paymentMethods.$inferSelect>> {
  if (subscriptionIds.length === 0) return new Map();
  const rows = await db
    .select({ subscriptionId: subscriptions.id, method: paymentMethods })
    .from(subscriptions)
    .innerJoin(
      paymentMethods,
      and(
        eq(paymentMethods.userId, subscriptions.userId),
        isNull(paymentMethods.removedAt),
        renewsOn("subscriptions", "payment_methods"),
      ),
    )
    .where(inArray(subscriptions.id, [...subscriptionIds]));
  return new Map(rows.map((row) => [row.subscriptionId, row.method]));
}

/** A period's use so far and its alerts (none yet: zero), by subscription. */
export async function periodUsage(
  db: Db,
  keys: readonly { subscriptionId: string; periodIndex: number }[],
): Promise<Map<string, { quantity: number; alertsSent: number }>> {
  const found = new Map<string, { quantity: number; alertsSent: number }>();
  if (keys.length === 0) return found;
  const rows = await rowsOf<{
    subscriptionId: string;
    periodIndex: number;
    quantity: string;
    alertsSent: number;
  }>(
    db,
    sql`select p.subscription_id as "subscriptionId", p.period_index as "periodIndex",
        p.quantity::text as quantity, p.alerts_sent as "alertsSent"
      from ${usagePeriods} p
      join unnest(${sql.param(keys.map((k) => k.subscriptionId))}::uuid[], ${sql.param(keys.map((k) => k.periodIndex))}::int[])
        as v(subscription_id, period_index)
        on p.subscription_id = v.subscription_id and p.period_index = v.period_index`,
  );
  for (const row of rows)
    found.set(`${row.subscriptionId}:${row.periodIndex}`, {
      quantity: Number(row.quantity),
      alertsSent: row.alertsSent,
    });
  return found;
}

/**
 * Live trials ending within `until` whose seller has not been told yet, locked for the pass (`FOR UPDATE
 * SKIP LOCKED`); each is marked told in the same statement's transaction by `setTrialEndingNoticed`.
 */
export async function trialsEndingSoon(tx: Transaction, now: Date, until: Date, limit: number) {
  return tx
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(
      and(
        isNull(subscriptions.endedAt),
        isNull(subscriptions.trialEndingNoticeAt),
        eq(subscriptions.periodsPaid, 0),
        sql`${subscriptions.trialEndsAt} > ${now.toISOString()}::timestamptz`,
        lte(subscriptions.trialEndsAt, until),
      ),
    )
    .limit(limit)
    .for("update", { skipLocked: true });
}

export async function setTrialEndingNoticed(tx: Transaction, ids: readonly string[], at: Date) {
  if (ids.length === 0) return;
  await tx
    .update(subscriptions)
    .set({ trialEndingNoticeAt: at })
    .where(inArray(subscriptions.id, [...ids]));
}

/**
 * Opens again the periods a renewal order rated, when that order is cancelled unpaid with its
 * subscription's end: their use was never paid for, so the final bill rates it again (decision 0029).
 */
export async function reopenPeriodsOf(tx: Transaction, orderId: string, now: Date) {
  await tx
    .update(usagePeriods)
    .set({ ratedAt: null, orderId: null, updatedAt: now })
    .where(eq(usagePeriods.orderId, orderId));
}

/** Closes a buyer's unrated periods without billing them (their account is gone). */
export async function closeUnratedPeriodsOfUser(tx: Transaction, userId: string, now: Date) {
  await tx
    .update(usagePeriods)
    .set({ ratedAt: now, updatedAt: now })
    .where(
      and(
        isNull(usagePeriods.ratedAt),
        inArray(
          usagePeriods.subscriptionId,
          tx.select({ id: subscriptions.id }).from(subscriptions).where(eq(subscriptions.userId, userId)),
        ),
      ),
    );
}
