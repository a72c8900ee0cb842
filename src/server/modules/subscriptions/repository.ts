import { and, asc, desc, eq, inArray, isNull, lte, sql } from "drizzle-orm";
import type { BillingInterval } from "#domain/subscriptions";
import type { Db, Transaction } from "#server/db/client";
import { licenses } from "#server/db/schema/after-sale";
import { orderItems, orders } from "#server/db/schema/orders";
import { subscriptionRenewals, subscriptions } from "#server/db/schema/subscriptions";

export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type NewSubscription = typeof subscriptions.$inferInsert;

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
    })
    .from(orderItems)
    .where(
      and(eq(orderItems.orderId, orderId), inArray(orderItems.pricingUnit, ["month", "year", "user_month"])),
    );
}

/** Starts subscriptions; an item that already started one (a delivery repeated) keeps it. */
export async function insertSubscriptions(tx: Transaction, rows: NewSubscription[]): Promise<void> {
  if (rows.length === 0) return;
  await tx.insert(subscriptions).values(rows).onConflictDoNothing({ target: subscriptions.orderItemId });
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
    .set({ periodsPaid, paidThrough, cancelAtPeriodEnd: false, updatedAt: now })
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

/** Revokes the active licences of an ended subscription's item. */
export async function revokeLicensesOf(tx: Transaction, orderItemId: string, now: Date) {
  await tx
    .update(licenses)
    .set({ status: "revoked", revokedAt: now })
    .where(and(eq(licenses.orderItemId, orderItemId), eq(licenses.status, "active")));
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
    })
    .from(subscriptions)
    .innerJoin(orderItems, eq(orderItems.id, subscriptions.orderItemId))
    .innerJoin(orders, eq(orders.id, subscriptions.orderId))
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

/** The unpaid renewal (at most one: the next period's) of each of these subscriptions. */
export async function unpaidRenewalsOf(db: Db, subscriptionIds: string[]) {
  const due = new Map<
    string,
    { id: string; orderId: string; total: string; dueAt: Date; remindersSent: number }
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
      total: orders.totalAmount,
    })
    .from(subscriptionRenewals)
    .innerJoin(orders, eq(orders.id, subscriptionRenewals.orderId))
    .innerJoin(subscriptions, eq(subscriptions.id, subscriptionRenewals.subscriptionId))
    .where(
      and(
        inArray(subscriptionRenewals.subscriptionId, subscriptionIds),
        eq(subscriptionRenewals.periodIndex, subscriptions.periodsPaid),
        inArray(orders.paymentStatus, [...UNPAID]),
        isNull(orders.cancelledAt),
      ),
    );
  for (const row of rows) due.set(row.subscriptionId, row);
  return due;
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

/** Live subscriptions whose next renewal is to be invoiced by `until`, oldest due first, locked for this run. */
export async function subscriptionsToInvoice(
  tx: Transaction,
  until: Record<BillingInterval, Date>,
  limit: number,
) {
  return tx
    .select()
    .from(subscriptions)
    .where(
      and(
        isNull(subscriptions.endedAt),
        eq(subscriptions.cancelAtPeriodEnd, false),
        sql`${subscriptions.paidThrough} <= case ${subscriptions.interval} when 'year' then ${until.year.toISOString()}::timestamptz else ${until.month.toISOString()}::timestamptz end`,
        sql`not exists (select 1 from ${subscriptionRenewals} r where r.subscription_id = ${subscriptions.id} and r.period_index = ${subscriptions.periodsPaid})`,
      ),
    )
    .orderBy(asc(subscriptions.paidThrough))
    .limit(limit)
    .for("update", { skipLocked: true });
}

/** Claims a period's renewal; false when it was claimed already (another instance, an earlier run). */
export async function claimRenewal(
  tx: Transaction,
  values: typeof subscriptionRenewals.$inferInsert,
): Promise<boolean> {
  const rows = await tx
    .insert(subscriptionRenewals)
    .values(values)
    .onConflictDoNothing({ target: [subscriptionRenewals.subscriptionId, subscriptionRenewals.periodIndex] })
    .returning({ id: subscriptionRenewals.id });
  return rows.length > 0;
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
        isNull(subscriptions.endedAt),
        eq(subscriptionRenewals.periodIndex, subscriptions.periodsPaid),
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

/** An unpaid renewal order of an ended subscription: failed and cancelled, so it is not paid again. */
export async function cancelUnpaidOrder(tx: Transaction, orderId: string, now: Date) {
  await tx
    .update(orders)
    .set({ paymentStatus: "failed", isPaid: false, cancelledAt: now, updatedAt: now })
    .where(and(eq(orders.id, orderId), inArray(orders.paymentStatus, [...UNPAID])));
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
