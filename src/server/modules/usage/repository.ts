import { and, eq, type SQLWrapper, sql } from "drizzle-orm";
import { MAX_PERIOD_USAGE } from "#domain/metering";
import type { Db, Transaction } from "#server/db/client";
import { rowsOf } from "#server/db/client";
import { licenses } from "#server/db/schema/after-sale";
import { orderItems } from "#server/db/schema/orders";
import { subscriptions, usagePeriods, usageRecords } from "#server/db/schema/subscriptions";

/** A subscription as usage reports need it: its seller's, with its terms of use and its periods. */
const meteredColumns = {
  id: subscriptions.id,
  userId: subscriptions.userId,
  productName: orderItems.productName,
  meterUnit: subscriptions.meterUnit,
  usageTiers: subscriptions.usageTiers,
  spendingCap: subscriptions.spendingCap,
  unitPrice: subscriptions.unitPrice,
  quantity: subscriptions.quantity,
  anchor: subscriptions.anchor,
  interval: subscriptions.interval,
  anchorPeriod: subscriptions.anchorPeriod,
  createdAt: subscriptions.createdAt,
  endedAt: subscriptions.endedAt,
};

export type MeteredRow = Awaited<ReturnType<typeof sellerSubscriptionsById>>[number];

/**
 * `column = any(values)` with the values as one array parameter: a batch's thousand ids or keys are one
 * value to bind, where `inArray` builds and binds a parameter for each.
 */
const anyOf = (column: SQLWrapper, values: readonly string[], type: "uuid" | "text") =>
  sql`${column} = any(${sql.param([...values])}::${sql.raw(type)}[])`;

/** The seller's subscriptions among `ids` (another seller's are simply not found). */
export async function sellerSubscriptionsById(db: Db, sellerId: string, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return db
    .select(meteredColumns)
    .from(subscriptions)
    .innerJoin(orderItems, eq(orderItems.id, subscriptions.orderItemId))
    .where(and(anyOf(subscriptions.id, ids, "uuid"), eq(orderItems.sellerId, sellerId)));
}

/** The seller's subscriptions whose licence keys are among `keys`, by key. */
export async function sellerSubscriptionsByKey(db: Db, sellerId: string, keys: readonly string[]) {
  if (keys.length === 0) return [];
  return db
    .select({ key: licenses.key, ...meteredColumns })
    .from(licenses)
    .innerJoin(subscriptions, eq(subscriptions.orderItemId, licenses.orderItemId))
    .innerJoin(orderItems, eq(orderItems.id, subscriptions.orderItemId))
    .where(and(anyOf(licenses.key, keys, "text"), eq(orderItems.sellerId, sellerId)));
}

export type NewUsageRecord = {
  subscriptionId: string;
  periodIndex: number;
  quantity: number;
  usedAt: Date;
  idempotencyKey: string;
  reason: string | null;
};

/**
 * Inserts a batch's records in one statement; a key the seller used before (or a concurrent report is
 * inserting) is skipped. Answers the records inserted now, by key.
 */
export async function insertRecords(
  tx: Transaction,
  sellerId: string,
  rows: readonly NewUsageRecord[],
  now: Date,
): Promise<Map<string, string>> {
  if (rows.length === 0) return new Map();
  const column = <K extends keyof NewUsageRecord>(key: K, map?: (v: NewUsageRecord[K]) => unknown) =>
    sql.param(rows.map((row) => (map ? map(row[key]) : row[key])));
  const inserted = await rowsOf<{ id: string; key: string }>(
    tx,
    sql`insert into ${usageRecords} (subscription_id, seller_id, period_index, quantity, used_at,
        idempotency_key, reason, created_at)
      select v.subscription_id, ${sellerId}, v.period_index, v.quantity, v.used_at, v.idempotency_key, v.reason,
        ${now.toISOString()}::timestamptz
      from unnest(${column("subscriptionId")}::uuid[], ${column("periodIndex")}::int[],
        ${column("quantity")}::bigint[], ${column("usedAt", (d) => (d as Date).toISOString())}::timestamptz[],
        ${column("idempotencyKey")}::text[], ${column("reason")}::text[])
        as v(subscription_id, period_index, quantity, used_at, idempotency_key, reason)
      on conflict (seller_id, idempotency_key) do nothing
      returning id, idempotency_key as key`,
  );
  return new Map(inserted.map((row) => [row.key, row.id]));
}

/** The seller's records with these keys, by key: what a report repeating them is answered. */
export async function recordIdsByKey(db: Db, sellerId: string, keys: readonly string[]) {
  if (keys.length === 0) return new Map<string, string>();
  const rows = await db
    .select({ id: usageRecords.id, key: usageRecords.idempotencyKey })
    .from(usageRecords)
    .where(and(eq(usageRecords.sellerId, sellerId), anyOf(usageRecords.idempotencyKey, keys, "text")));
  return new Map(rows.map((row) => [row.key, row.id]));
}

export async function deleteRecords(tx: Transaction, ids: readonly string[]) {
  if (ids.length === 0) return;
  await tx.delete(usageRecords).where(anyOf(usageRecords.id, ids, "uuid"));
}

export type PeriodDelta = { subscriptionId: string; periodIndex: number; delta: number };

/**
 * Adds each delta to its period's running sum, under the period's row lock, so reports arriving at once
 * add up. A period already rated, or one a delta would take below zero or above `MAX_PERIOD_USAGE`, is
 * left as it was and not answered. Answers the periods changed, with their new sums and the alerts sent in them so far.
 */
export async function addToPeriods(tx: Transaction, deltas: readonly PeriodDelta[], now: Date) {
  if (deltas.length === 0) return [];
  const ids = sql.param(deltas.map((d) => d.subscriptionId));
  const periods = sql.param(deltas.map((d) => d.periodIndex));
  await tx.execute(
    sql`insert into ${usagePeriods} (subscription_id, period_index, quantity, updated_at)
      select v.subscription_id, v.period_index, 0, ${now.toISOString()}::timestamptz
      from unnest(${ids}::uuid[], ${periods}::int[]) as v(subscription_id, period_index)
      order by 1, 2
      on conflict do nothing`,
  );
  return rowsOf<{ subscriptionId: string; periodIndex: number; quantity: string; alertsSent: number }>(
    tx,
    sql`update ${usagePeriods} p set quantity = p.quantity + v.delta, updated_at = ${now.toISOString()}::timestamptz
      from unnest(${ids}::uuid[], ${periods}::int[], ${sql.param(deltas.map((d) => d.delta))}::bigint[])
        as v(subscription_id, period_index, delta)
      where p.subscription_id = v.subscription_id and p.period_index = v.period_index
        and p.rated_at is null and p.quantity + v.delta between 0 and ${MAX_PERIOD_USAGE}
      returning p.subscription_id as "subscriptionId", p.period_index as "periodIndex",
        p.quantity::text as quantity, p.alerts_sent as "alertsSent"`,
  );
}

/** Which of these periods are rated already (their renewal invoiced them). */
export async function ratedPeriods(db: Db, keys: readonly { subscriptionId: string; periodIndex: number }[]) {
  if (keys.length === 0) return new Set<string>();
  const rows = await rowsOf<{ subscriptionId: string; periodIndex: number }>(
    db,
    sql`select p.subscription_id as "subscriptionId", p.period_index as "periodIndex" from ${usagePeriods} p
      join unnest(${sql.param(keys.map((k) => k.subscriptionId))}::uuid[], ${sql.param(keys.map((k) => k.periodIndex))}::int[])
        as v(subscription_id, period_index)
        on p.subscription_id = v.subscription_id and p.period_index = v.period_index
      where p.rated_at is not null`,
  );
  return new Set(rows.map((row) => `${row.subscriptionId}:${row.periodIndex}`));
}

/** Records that `alertsSent` of a period's cap alerts are sent; answers false if as many were already. */
export async function setAlertsSent(
  tx: Transaction,
  subscriptionId: string,
  periodIndex: number,
  alertsSent: number,
): Promise<boolean> {
  const rows = await tx
    .update(usagePeriods)
    .set({ alertsSent })
    .where(
      and(
        eq(usagePeriods.subscriptionId, subscriptionId),
        eq(usagePeriods.periodIndex, periodIndex),
        sql`${usagePeriods.alertsSent} < ${alertsSent}`,
      ),
    )
    .returning({ alertsSent: usagePeriods.alertsSent });
  return rows.length > 0;
}

/**
 * The use of periods about to be rated, locked: each (subscription, period) row is made if no use was
 * reported and taken `FOR UPDATE`, so a report committing at the same moment either counts before the
 * rating or, once the rating commits, finds the period rated and is refused. A period rated already is
 * not answered.
 */
export async function lockPeriodsToRate(
  tx: Transaction,
  keys: readonly { subscriptionId: string; periodIndex: number }[],
  now: Date,
): Promise<Map<string, number>> {
  if (keys.length === 0) return new Map();
  const ids = sql.param(keys.map((k) => k.subscriptionId));
  const periods = sql.param(keys.map((k) => k.periodIndex));
  await tx.execute(
    sql`insert into ${usagePeriods} (subscription_id, period_index, quantity, updated_at)
      select v.subscription_id, v.period_index, 0, ${now.toISOString()}::timestamptz
      from unnest(${ids}::uuid[], ${periods}::int[]) as v(subscription_id, period_index)
      order by 1, 2
      on conflict do nothing`,
  );
  const rows = await rowsOf<{ subscriptionId: string; quantity: string }>(
    tx,
    sql`select p.subscription_id as "subscriptionId", p.quantity::text as quantity from ${usagePeriods} p
      join unnest(${ids}::uuid[], ${periods}::int[]) as v(subscription_id, period_index)
        on p.subscription_id = v.subscription_id and p.period_index = v.period_index
      where p.rated_at is null
      order by p.subscription_id, p.period_index
      for update of p`,
  );
  return new Map(rows.map((row) => [row.subscriptionId, Number(row.quantity)]));
}

/**
 * The periods of these (ended) subscriptions whose use is not rated yet, locked as `lockPeriodsToRate`
 * locks them: a report committing at the same moment counts before the rating or is refused after it.
 * A period without a row had no use reported and is not answered.
 */
export async function lockUnratedPeriods(tx: Transaction, subscriptionIds: readonly string[]) {
  if (subscriptionIds.length === 0) return [];
  const rows = await rowsOf<{ subscriptionId: string; periodIndex: number; quantity: string }>(
    tx,
    sql`select p.subscription_id as "subscriptionId", p.period_index as "periodIndex", p.quantity::text as quantity
      from ${usagePeriods} p
      where p.subscription_id = any(${sql.param([...subscriptionIds])}::uuid[]) and p.rated_at is null
      order by p.subscription_id, p.period_index
      for update of p`,
  );
  return rows.map((row) => ({ ...row, quantity: Number(row.quantity) }));
}

/**
 * Marks periods rated on the renewal orders that invoice their use; a period whose use came to nothing
 * at the end of its subscription is rated on no order (`orderId` null).
 */
export async function markRated(
  tx: Transaction,
  rows: readonly { subscriptionId: string; periodIndex: number; orderId: string | null }[],
  now: Date,
) {
  if (rows.length === 0) return;
  await tx.execute(
    sql`update ${usagePeriods} p set rated_at = ${now.toISOString()}::timestamptz, order_id = v.order_id,
        updated_at = ${now.toISOString()}::timestamptz
      from unnest(${sql.param(rows.map((r) => r.subscriptionId))}::uuid[], ${sql.param(rows.map((r) => r.periodIndex))}::int[],
        ${sql.param(rows.map((r) => r.orderId))}::uuid[]) as v(subscription_id, period_index, order_id)
      where p.subscription_id = v.subscription_id and p.period_index = v.period_index`,
  );
}

/** Sets a subscription's spending cap. */
export async function setSpendingCap(tx: Transaction, subscriptionId: string, cap: string | null, now: Date) {
  await tx
    .update(subscriptions)
    .set({ spendingCap: cap, updatedAt: now })
    .where(eq(subscriptions.id, subscriptionId));
}

/** Sets a period's alerts sent to what its use has reached under a new cap (lower or higher). */
export async function resetAlerts(
  tx: Transaction,
  subscriptionId: string,
  periodIndex: number,
  alertsSent: number,
) {
  await tx
    .update(usagePeriods)
    .set({ alertsSent })
    .where(and(eq(usagePeriods.subscriptionId, subscriptionId), eq(usagePeriods.periodIndex, periodIndex)));
}
