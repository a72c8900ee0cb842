import { and, asc, count, desc, eq, inArray, lt, sql } from "drizzle-orm";
import type { License, LicenseActivation } from "#domain/license-schemas";
import { LICENSED_CATEGORIES } from "#domain/licenses";
import { utcDay } from "#domain/reviews";
import type { Database, Db, Transaction } from "#server/db/client";
import { licenseActivations, licenses } from "#server/db/schema/after-sale";
import { orderItems, orders } from "#server/db/schema/orders";
import { licenseValidationDays } from "#server/db/schema/reviews";
import { subscriptions, usagePeriods } from "#server/db/schema/subscriptions";

export type LicenseRow = typeof licenses.$inferSelect;
type ActivationRow = typeof licenseActivations.$inferSelect;

/** Statuses a licence may still leave: `revoke*` withdraws both an active and a suspended one. */
const LIVE_STATUSES = ["active", "suspended"];

export function toActivation(row: ActivationRow): LicenseActivation {
  return {
    id: row.id,
    machine: row.machine,
    label: row.label,
    activatedAt: row.activatedAt.toISOString(),
    lastSeenAt: row.lastSeenAt.toISOString(),
  };
}

export function toLicense(row: LicenseRow, activations: LicenseActivation[] = []): License {
  return {
    id: row.id,
    key: row.key,
    productId: row.productId,
    productName: row.productName,
    orderId: row.orderId,
    status: row.status as License["status"],
    issuedAt: row.issuedAt.toISOString(),
    renewsAt: row.renewsAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    seats: row.seats,
    activations,
  };
}

/** The activations of these licences by licence, most recently seen first. */
export async function activationsOf(db: Db, licenseIds: readonly string[]) {
  const byLicense = new Map<string, LicenseActivation[]>();
  if (licenseIds.length === 0) return byLicense;
  const rows = await db
    .select()
    .from(licenseActivations)
    .where(inArray(licenseActivations.licenseId, [...licenseIds]))
    .orderBy(desc(licenseActivations.lastSeenAt), asc(licenseActivations.id));
  for (const row of rows) {
    const list = byLicense.get(row.licenseId) ?? [];
    list.push(toActivation(row));
    byLicense.set(row.licenseId, list);
  }
  return byLicense;
}

/** A user's licenses, newest first, each with its activations. */
export async function licensesOf(db: Database, userId: string): Promise<License[]> {
  const rows = await db
    .select()
    .from(licenses)
    .where(eq(licenses.userId, userId))
    .orderBy(desc(licenses.issuedAt), desc(licenses.id));
  const activations = await activationsOf(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toLicense(row, activations.get(row.id)));
}

/** The user's licence `id`, or undefined when it is not theirs (or does not exist). */
export async function licenseOfUser(db: Db, userId: string, id: string) {
  const [row] = await db
    .select()
    .from(licenses)
    .where(and(eq(licenses.id, id), eq(licenses.userId, userId)));
  return row;
}

/** The licence of this key, locked until the transaction ends: its seats are counted under this lock. */
export async function lockLicenseByKey(tx: Transaction, key: string) {
  const [row] = await tx.select().from(licenses).where(eq(licenses.key, key)).for("update");
  return row;
}

export async function findLicenseByKey(db: Db, key: string) {
  const [row] = await db.select().from(licenses).where(eq(licenses.key, key));
  return row;
}

/** The subscription's columns a licence's state is read from (its id first: a left join's row is null by it). */
const subscriptionColumns = {
  id: subscriptions.id,
  endedAt: subscriptions.endedAt,
  cancelAtPeriodEnd: subscriptions.cancelAtPeriodEnd,
  paidThrough: subscriptions.paidThrough,
  periodsPaid: subscriptions.periodsPaid,
  trialEndsAt: subscriptions.trialEndsAt,
  meterUnit: subscriptions.meterUnit,
  usageTiers: subscriptions.usageTiers,
  spendingCap: subscriptions.spendingCap,
  anchor: subscriptions.anchor,
  interval: subscriptions.interval,
  anchorPeriod: subscriptions.anchorPeriod,
};
export type LicenseSubscription = NonNullable<Awaited<ReturnType<typeof subscriptionOfItem>>>;

/**
 * What the public check reads of a key, in one statement: the licence, the subscription its item started
 * (if any) and how many machines it is activated on.
 */
export async function licenseForCheck(db: Db, key: string) {
  const [row] = await db
    .select({
      license: licenses,
      subscription: subscriptionColumns,
      seatsUsed: sql<number>`(select count(*)::int from ${licenseActivations} a where a.license_id = ${licenses.id})`,
    })
    .from(licenses)
    .leftJoin(subscriptions, eq(subscriptions.orderItemId, licenses.orderItemId))
    .where(eq(licenses.key, key));
  return row;
}

/** What a licence's state is read from: the subscription its order item started, if any. */
export async function subscriptionOfItem(db: Db, orderItemId: string) {
  const [row] = await db
    .select(subscriptionColumns)
    .from(subscriptions)
    .where(eq(subscriptions.orderItemId, orderItemId));
  return row ?? null;
}

/** The use counted so far in one period of a metered subscription (0 before its first report). */
export async function usageInPeriod(db: Db, subscriptionId: string, periodIndex: number): Promise<number> {
  const [row] = await db
    .select({ quantity: usagePeriods.quantity })
    .from(usagePeriods)
    .where(and(eq(usagePeriods.subscriptionId, subscriptionId), eq(usagePeriods.periodIndex, periodIndex)));
  return row?.quantity ?? 0;
}

/** How many machines the licence is activated on. */
export async function seatsUsed(db: Db, licenseId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(licenseActivations)
    .where(eq(licenseActivations.licenseId, licenseId));
  return row?.n ?? 0;
}

export async function activationOfMachine(db: Db, licenseId: string, machine: string) {
  const [row] = await db
    .select()
    .from(licenseActivations)
    .where(and(eq(licenseActivations.licenseId, licenseId), eq(licenseActivations.machine, machine)));
  return row;
}

export async function insertActivation(db: Db, values: typeof licenseActivations.$inferInsert) {
  const [row] = await db.insert(licenseActivations).values(values).returning();
  if (!row) throw new Error("the activation was not inserted");
  return row;
}

export async function updateActivation(
  db: Db,
  id: string,
  values: Partial<Pick<ActivationRow, "label" | "lastSeenAt">>,
) {
  const [row] = await db
    .update(licenseActivations)
    .set(values)
    .where(eq(licenseActivations.id, id))
    .returning();
  if (!row) throw new Error("the activation was not updated");
  return row;
}

/** Records a check-in of the machine; answers whether it is activated on the licence. */
export async function touchActivation(db: Db, licenseId: string, machine: string, at: Date) {
  const touched = await db
    .update(licenseActivations)
    .set({ lastSeenAt: at })
    .where(and(eq(licenseActivations.licenseId, licenseId), eq(licenseActivations.machine, machine)))
    .returning({ id: licenseActivations.id });
  return touched.length > 0;
}

/** Deactivates the machine; answers whether it was activated. */
export async function deleteActivationOfMachine(db: Db, licenseId: string, machine: string) {
  const gone = await db
    .delete(licenseActivations)
    .where(and(eq(licenseActivations.licenseId, licenseId), eq(licenseActivations.machine, machine)))
    .returning({ id: licenseActivations.id });
  return gone.length > 0;
}

/** Deletes the activation `id` of the licence; answers the deleted row, if there was one. */
export async function deleteActivation(db: Db, licenseId: string, id: string) {
  const [gone] = await db
    .delete(licenseActivations)
    .where(and(eq(licenseActivations.licenseId, licenseId), eq(licenseActivations.id, id)))
    .returning();
  return gone;
}

/** Frees the seats of machines not seen since `before`; answers how many were freed. */
export async function deleteStaleActivations(db: Db, before: Date): Promise<number> {
  const gone = await db
    .delete(licenseActivations)
    .where(lt(licenseActivations.lastSeenAt, before))
    .returning({ id: licenseActivations.id });
  return gone.length;
}

const sellerLicenseColumns = {
  license: licenses,
  seatsUsed: sql<number>`(select count(*)::int from ${licenseActivations} where ${licenseActivations.licenseId} = ${licenses.id})`,
};

/** One page of the licences of a seller's items, newest first, with their seats in use. */
export async function licensesOfSeller(db: Db, sellerId: string, page: number, pageSize: number) {
  const [items, [total]] = await Promise.all([
    db
      .select(sellerLicenseColumns)
      .from(licenses)
      .innerJoin(orderItems, eq(orderItems.id, licenses.orderItemId))
      .where(eq(orderItems.sellerId, sellerId))
      .orderBy(desc(licenses.issuedAt), desc(licenses.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db
      .select({ n: count() })
      .from(licenses)
      .innerJoin(orderItems, eq(orderItems.id, licenses.orderItemId))
      .where(eq(orderItems.sellerId, sellerId)),
  ]);
  return { items, total: total?.n ?? 0 };
}

/** The seller's licence `id` (one of their items'), optionally locked; undefined when it is not theirs. */
export async function licenseOfSeller(db: Db, sellerId: string, id: string, lock = false) {
  const query = db
    .select({ license: licenses })
    .from(licenses)
    .innerJoin(orderItems, eq(orderItems.id, licenses.orderItemId))
    .where(and(eq(licenses.id, id), eq(orderItems.sellerId, sellerId)));
  const [row] = lock ? await query.for("update", { of: licenses }) : await query;
  return row?.license;
}

export async function updateLicense(
  tx: Transaction,
  id: string,
  values: Partial<Pick<LicenseRow, "status" | "suspendedAt">>,
) {
  const [row] = await tx.update(licenses).set(values).where(eq(licenses.id, id)).returning();
  if (!row) throw new Error(`license ${id} was not updated`);
  return row;
}

/** An order's licenses in issue order (for its confirmation e-mail). */
export async function licensesOfOrder(db: Database, orderId: string): Promise<License[]> {
  const rows = await db
    .select()
    .from(licenses)
    .where(eq(licenses.orderId, orderId))
    .orderBy(licenses.issuedAt, licenses.key);
  return rows.map((row) => toLicense(row));
}

/**
 * Remembers that an active license passed the license API on the UTC day of `at`, once per day: seven
 * such days earn its holder's review the "Verified active use" badge.
 */
export async function recordValidationDay(db: Database, licenseId: string, at: Date): Promise<void> {
  await db
    .insert(licenseValidationDays)
    .values({ licenseId, day: utcDay(at) })
    .onConflictDoNothing();
}

/** The buyer of an order, or undefined for an unknown order. */
export async function orderBuyer(tx: Transaction, orderId: string): Promise<string | undefined> {
  const [order] = await tx.select({ userId: orders.userId }).from(orders).where(eq(orders.id, orderId));
  return order?.userId;
}

/** The order's items in a licensed category. */
export async function licensedItemsOf(tx: Transaction, orderId: string) {
  return tx
    .select()
    .from(orderItems)
    .where(and(eq(orderItems.orderId, orderId), inArray(orderItems.category, [...LICENSED_CATEGORIES])));
}

/** The ids of the order's items that already have license keys. */
export async function itemsWithLicenses(tx: Transaction, orderId: string): Promise<Set<string>> {
  const rows = await tx
    .selectDistinct({ orderItemId: licenses.orderItemId })
    .from(licenses)
    .where(eq(licenses.orderId, orderId));
  return new Set(rows.map((row) => row.orderItemId));
}

/** Inserts licenses; one whose key is already taken is skipped. Answers how many were inserted. */
export async function insertLicensesSkippingTakenKeys(
  tx: Transaction,
  rows: (typeof licenses.$inferInsert)[],
): Promise<number> {
  const inserted = await tx
    .insert(licenses)
    .values(rows)
    .onConflictDoNothing({ target: licenses.key })
    .returning({ id: licenses.id });
  return inserted.length;
}

/** Revokes every active or suspended license of an order item; answers how many were revoked. */
export async function revokeActiveLicensesOfItem(
  tx: Transaction,
  orderItemId: string,
  now: Date,
): Promise<number> {
  const revoked = await tx
    .update(licenses)
    .set({ status: "revoked", revokedAt: now })
    .where(and(eq(licenses.orderItemId, orderItemId), inArray(licenses.status, LIVE_STATUSES)))
    .returning({ id: licenses.id });
  return revoked.length;
}

/** The licences of an order item still in force (active or suspended), oldest first. */
export async function activeLicensesOfItem(tx: Transaction, orderItemId: string) {
  return tx
    .select()
    .from(licenses)
    .where(and(eq(licenses.orderItemId, orderItemId), inArray(licenses.status, LIVE_STATUSES)))
    .orderBy(asc(licenses.issuedAt), asc(licenses.key));
}

/** Revokes these licences. */
export async function revokeLicenses(tx: Transaction, ids: readonly string[], now: Date) {
  if (ids.length === 0) return;
  await tx
    .update(licenses)
    .set({ status: "revoked", revokedAt: now })
    .where(and(inArray(licenses.id, [...ids]), inArray(licenses.status, LIVE_STATUSES)));
}
