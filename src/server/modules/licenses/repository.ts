import { and, asc, desc, eq, inArray } from "drizzle-orm";
import type { License } from "#domain/license-schemas";
import { LICENSED_CATEGORIES } from "#domain/licenses";
import { utcDay } from "#domain/reviews";
import type { Database, Transaction } from "#server/db/client";
import { licenses } from "#server/db/schema/after-sale";
import { orderItems, orders } from "#server/db/schema/orders";
import { licenseValidationDays } from "#server/db/schema/reviews";
import { subscriptions } from "#server/db/schema/subscriptions";

type LicenseRow = typeof licenses.$inferSelect;

export function toLicense(row: LicenseRow): License {
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
  };
}

/** A user's licenses, newest first. */
export async function licensesOf(db: Database, userId: string): Promise<License[]> {
  const rows = await db
    .select()
    .from(licenses)
    .where(eq(licenses.userId, userId))
    .orderBy(desc(licenses.issuedAt), desc(licenses.id));
  return rows.map(toLicense);
}

/** An order's licenses in issue order (for its confirmation e-mail). */
export async function licensesOfOrder(db: Database, orderId: string): Promise<License[]> {
  const rows = await db
    .select()
    .from(licenses)
    .where(eq(licenses.orderId, orderId))
    .orderBy(licenses.issuedAt, licenses.key);
  return rows.map(toLicense);
}

/** A key with what its check reads: the licence, and the subscription its item started, if any. */
export async function findLicenseForCheck(db: Database, key: string) {
  const [row] = await db
    .select({
      license: licenses,
      // drizzle reads a left-joined object as missing when its first column is null: the id comes first.
      subscription: {
        id: subscriptions.id,
        endedAt: subscriptions.endedAt,
        cancelAtPeriodEnd: subscriptions.cancelAtPeriodEnd,
        paidThrough: subscriptions.paidThrough,
        periodsPaid: subscriptions.periodsPaid,
        trialEndsAt: subscriptions.trialEndsAt,
      },
    })
    .from(licenses)
    .leftJoin(subscriptions, eq(subscriptions.orderItemId, licenses.orderItemId))
    .where(eq(licenses.key, key));
  return row ?? null;
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

/** Revokes every active license of an order item; answers how many were revoked. */
export async function revokeActiveLicensesOfItem(
  tx: Transaction,
  orderItemId: string,
  now: Date,
): Promise<number> {
  const revoked = await tx
    .update(licenses)
    .set({ status: "revoked", revokedAt: now })
    .where(and(eq(licenses.orderItemId, orderItemId), eq(licenses.status, "active")))
    .returning({ id: licenses.id });
  return revoked.length;
}

/** The active licences of an order item, oldest first. */
export async function activeLicensesOfItem(tx: Transaction, orderItemId: string) {
  return tx
    .select()
    .from(licenses)
    .where(and(eq(licenses.orderItemId, orderItemId), eq(licenses.status, "active")))
    .orderBy(asc(licenses.issuedAt), asc(licenses.key));
}

/** Revokes these licences. */
export async function revokeLicenses(tx: Transaction, ids: readonly string[], now: Date) {
  if (ids.length === 0) return;
  await tx
    .update(licenses)
    .set({ status: "revoked", revokedAt: now })
    .where(and(inArray(licenses.id, [...ids]), eq(licenses.status, "active")));
}
