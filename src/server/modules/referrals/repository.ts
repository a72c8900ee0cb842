import { aliasedTable, and, asc, count, desc, eq, ilike, inArray, lt, notExists, or, sql } from "drizzle-orm";
import type { SignalKind } from "#domain/commission-holds";
import type { CommissionStatus } from "#domain/commissions";
import { openRefundStatuses } from "#domain/refunds";
import type { Db } from "#server/db/client";
import { onSale } from "#server/db/products";
import {
  commissions,
  referralClicks,
  refundRequests,
  resellerCodes,
  resellerFingerprints,
} from "#server/db/schema/after-sale";
import { user } from "#server/db/schema/auth";
import { products } from "#server/db/schema/catalog";
import { orderItems, orders } from "#server/db/schema/orders";
import { containsPattern } from "#server/lib/like";

export async function findCode(db: Db, userId: string): Promise<string | null> {
  const [row] = await db
    .select({ code: resellerCodes.code })
    .from(resellerCodes)
    .where(eq(resellerCodes.userId, userId));
  return row?.code ?? null;
}

/** Inserts the code unless the user already has one or another user holds it; the caller reads back. */
export async function insertCode(db: Db, userId: string, code: string): Promise<void> {
  await db.insert(resellerCodes).values({ userId, code }).onConflictDoNothing();
}

/** The account behind a code, with what decides whether it may still earn. */
export async function findCodeOwner(db: Db, code: string) {
  const [row] = await db
    .select({ id: user.id, isReseller: user.isReseller, banned: user.banned })
    .from(resellerCodes)
    .innerJoin(user, eq(user.id, resellerCodes.userId))
    .where(eq(resellerCodes.code, code));
  return row ?? null;
}

export async function findReseller(db: Db, userId: string) {
  const [row] = await db
    .select({ isReseller: user.isReseller, banned: user.banned, email: user.email })
    .from(user)
    .where(eq(user.id, userId));
  return row ?? null;
}

/** The buyer's account address and the order's contact address (which may differ). */
export async function findBuyerEmails(db: Db, orderId: string, buyerId: string): Promise<string[]> {
  const [[account], [order]] = await Promise.all([
    db.select({ email: user.email }).from(user).where(eq(user.id, buyerId)),
    db.select({ customer: orders.customerInfo }).from(orders).where(eq(orders.id, orderId)),
  ]);
  return [account?.email, order?.customer.email].filter((email): email is string => Boolean(email));
}

export async function findProductState(db: Db, productId: string) {
  const [row] = await db
    // "Active" for referrals means on sale: a listing waiting for review earns no link (decision 0013).
    .select({ isActive: onSale(), isResellable: products.isResellable })
    .from(products)
    .where(eq(products.id, productId));
  return row ?? null;
}

/** Records a click unless this visitor already clicked this reseller's link to this product today. */
export async function insertClick(
  db: Db,
  click: { resellerId: string; productId: string; visitorKey: string; day: string; createdAt: Date },
): Promise<boolean> {
  const rows = await db
    .insert(referralClicks)
    .values(click)
    .onConflictDoNothing()
    .returning({ id: referralClicks.id });
  return rows.length > 0;
}

/** An order's items whose product is resellable now, with the rate its seller set. */
export async function resellableItems(db: Db, orderId: string) {
  return db
    .select({
      id: orderItems.id,
      productId: products.id,
      price: orderItems.price,
      quantity: orderItems.quantity,
      rate: products.commissionRate,
    })
    .from(orderItems)
    .innerJoin(products, eq(products.id, orderItems.productId))
    .where(and(eq(orderItems.orderId, orderId), eq(products.isResellable, true)));
}

export async function insertCommissions(db: Db, rows: (typeof commissions.$inferInsert)[]): Promise<void> {
  if (rows.length === 0) return;
  await db.insert(commissions).values(rows).onConflictDoNothing({ target: commissions.orderItemId });
}

/** Pending commissions past their refund window become approved, unless a refund is still open. */
export async function approveDueCommissions(db: Db, now: Date) {
  const rows = await db
    .update(commissions)
    .set({ status: "approved", updatedAt: now })
    .where(
      and(
        eq(commissions.status, "pending"),
        sql`${commissions.eligibleAt} <= ${now.toISOString()}`,
        notExists(
          db
            .select({ one: sql`1` })
            .from(refundRequests)
            .where(
              and(
                eq(refundRequests.orderItemId, commissions.orderItemId),
                inArray(refundRequests.status, [...openRefundStatuses]),
              ),
            ),
        ),
      ),
    )
    .returning({
      id: commissions.id,
      orderId: commissions.orderId,
      orderItemId: commissions.orderItemId,
      resellerId: commissions.resellerId,
      amount: commissions.amount,
    });
  return rows;
}

/** The item's commission as it stands, locked: what a refund of the item finds before it acts. */
export async function lockItemCommission(db: Db, orderItemId: string) {
  const [row] = await db
    .select({
      id: commissions.id,
      resellerId: commissions.resellerId,
      amount: commissions.amount,
      status: commissions.status,
    })
    .from(commissions)
    .where(eq(commissions.orderItemId, orderItemId))
    .for("update");
  return row ?? null;
}

/** A refund cancels the item's commission while it still waits (pending, or held for review). */
export async function cancelPendingCommission(db: Db, orderItemId: string, now: Date): Promise<void> {
  await db
    .update(commissions)
    .set({ status: "cancelled", updatedAt: now })
    .where(and(eq(commissions.orderItemId, orderItemId), inArray(commissions.status, ["pending", "held"])));
}

export async function findCommissionForUpdate(db: Db, id: string) {
  const [row] = await db
    .select({
      id: commissions.id,
      orderId: commissions.orderId,
      orderItemId: commissions.orderItemId,
      resellerId: commissions.resellerId,
      amount: commissions.amount,
      status: commissions.status,
    })
    .from(commissions)
    .where(eq(commissions.id, id))
    .for("update");
  return row ?? null;
}

export async function updateCommissionStatus(db: Db, id: string, status: CommissionStatus, now: Date) {
  await db.update(commissions).set({ status, updatedAt: now }).where(eq(commissions.id, id));
}

const resellerUser = aliasedTable(user, "reseller");
const buyerUser = aliasedTable(user, "buyer");

/** Commissions of one status with their order, reseller, buyer and product, newest first. */
export async function heldCommissionRows(db: Db, status: CommissionStatus, page: number, pageSize: number) {
  const where = eq(commissions.status, status);
  const [rows, [counted]] = await Promise.all([
    db
      .select({
        id: commissions.id,
        orderId: commissions.orderId,
        amount: commissions.amount,
        status: commissions.status,
        holdReasons: commissions.holdReasons,
        createdAt: commissions.createdAt,
        resellerName: resellerUser.name,
        resellerEmail: resellerUser.email,
        buyerName: buyerUser.name,
        buyerEmail: buyerUser.email,
        productName: orderItems.productName,
      })
      .from(commissions)
      .innerJoin(orderItems, eq(orderItems.id, commissions.orderItemId))
      .innerJoin(orders, eq(orders.id, commissions.orderId))
      .innerJoin(resellerUser, eq(resellerUser.id, commissions.resellerId))
      .innerJoin(buyerUser, eq(buyerUser.id, orders.userId))
      .where(where)
      .orderBy(desc(commissions.createdAt), desc(commissions.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ n: count() }).from(commissions).where(where),
  ]);
  return { rows, total: counted?.n ?? 0 };
}

/**
 * Products a reseller's list shows: every active resellable one, and any other that still carries one
 * of their commissions (so earnings never vanish from the list when a seller withdraws a product).
 */
/**
 * A page of the products a reseller has links for (resellable ones on sale, and any that earned them
 * commission), by name; with `search`, only those whose name or category holds it. Also their number.
 */
export async function linkProducts(
  db: Db,
  resellerId: string,
  { search, page, pageSize }: { search: string; page: number; pageSize: number },
) {
  const earned = db
    .select({ productId: commissions.productId })
    .from(commissions)
    .where(eq(commissions.resellerId, resellerId));
  const where = and(
    or(and(onSale(), eq(products.isResellable, true)), inArray(products.id, earned)),
    search
      ? or(ilike(products.name, containsPattern(search)), ilike(products.category, containsPattern(search)))
      : undefined,
  );
  const [rows, [counted]] = await Promise.all([
    db
      .select({
        id: products.id,
        name: products.name,
        imageUrl: products.imageUrl,
        category: products.category,
        price: products.price,
        commissionRate: products.commissionRate,
        isActive: onSale(),
        isResellable: products.isResellable,
      })
      .from(products)
      .where(where)
      .orderBy(asc(products.name), asc(products.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ n: count() }).from(products).where(where),
  ]);
  return { rows, total: counted?.n ?? 0 };
}

export async function clickCounts(db: Db, resellerId: string) {
  return db
    .select({ productId: referralClicks.productId, clicks: sql<number>`count(*)::int` })
    .from(referralClicks)
    .where(eq(referralClicks.resellerId, resellerId))
    .groupBy(referralClicks.productId);
}

const sumOf = (status: string) =>
  sql<string>`coalesce(sum(${commissions.amount}) filter (where ${commissions.status} = ${status}), 0)`;

const commissionFigures = {
  orders: sql<number>`count(distinct ${commissions.orderId})::int`,
  pending: sumOf("pending"),
  held: sumOf("held"),
  approved: sumOf("approved"),
  cancelled: sumOf("cancelled"),
};

/** Orders and commission sums per product; the totals row counts an order with two products once. */
export async function commissionSums(db: Db, resellerId: string) {
  const mine = eq(commissions.resellerId, resellerId);
  const [perProduct, [total]] = await Promise.all([
    db
      .select({ productId: commissions.productId, ...commissionFigures })
      .from(commissions)
      .where(mine)
      .groupBy(commissions.productId),
    db.select(commissionFigures).from(commissions).where(mine),
  ]);
  return { perProduct, total };
}

/** Whether the account is a reseller. */
export async function isReseller(db: Db, userId: string): Promise<boolean> {
  const [owner] = await db.select({ isReseller: user.isReseller }).from(user).where(eq(user.id, userId));
  return owner?.isReseller ?? false;
}

/** Records the reseller's signal hashes as seen at `now` (a hash seen before only moves its date). */
export async function upsertFingerprints(db: Db, userId: string, kinds: [SignalKind, string][], now: Date) {
  await db
    .insert(resellerFingerprints)
    .values(kinds.map(([kind, hash]) => ({ userId, kind, hash, lastSeenAt: now })))
    .onConflictDoUpdate({
      target: [resellerFingerprints.userId, resellerFingerprints.kind, resellerFingerprints.hash],
      set: { lastSeenAt: sql`excluded.last_seen_at` },
    });
}

/** Forgets the reseller's hashes last seen before `cutoff`. */
export async function forgetFingerprintsSeenBefore(db: Db, userId: string, cutoff: Date) {
  await db
    .delete(resellerFingerprints)
    .where(and(eq(resellerFingerprints.userId, userId), lt(resellerFingerprints.lastSeenAt, cutoff)));
}

/** Every hash the reseller was seen with. */
export async function fingerprintsOf(db: Db, resellerId: string) {
  return db
    .select({ kind: resellerFingerprints.kind, hash: resellerFingerprints.hash })
    .from(resellerFingerprints)
    .where(eq(resellerFingerprints.userId, resellerId));
}

/** When the item's commission was recorded, unless it was rejected; null when it has none. */
export async function earnedAtOfItem(db: Db, orderItemId: string): Promise<Date | null> {
  const [row] = await db
    .select({ createdAt: commissions.createdAt })
    .from(commissions)
    .where(and(eq(commissions.orderItemId, orderItemId), sql`${commissions.status} <> 'rejected'`))
    .limit(1);
  return row?.createdAt ?? null;
}
