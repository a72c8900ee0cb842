import { and, asc, count, desc, eq, gte, ne, sql } from "drizzle-orm";
import { lineTotal } from "#domain/money";
import {
  type AdminPayout,
  type PayoutDestination,
  type PayoutState,
  REFUNDS_PAGE_SIZE,
  type RefundListItem,
  type RefundStatus,
} from "#domain/refunds";
import type { Db } from "#server/db/client";
import { refundMessages, refundPayouts, refundRequests } from "#server/db/schema/after-sale";
import { user } from "#server/db/schema/auth";
import { orderItems, orders } from "#server/db/schema/orders";
import { payments } from "#server/db/schema/payments";

export type RefundRow = typeof refundRequests.$inferSelect;
export type NewRefundRequest = typeof refundRequests.$inferInsert;

/** The item with its order, locked until the transaction ends, if it belongs to this buyer's order. */
export async function lockBuyersOrderItem(tx: Db, ids: { orderId: string; itemId: string }, buyerId: string) {
  const [found] = await tx
    .select({ item: orderItems, order: orders })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .where(and(eq(orderItems.id, ids.itemId), eq(orders.id, ids.orderId), eq(orders.userId, buyerId)))
    .for("no key update");
  return found;
}

/** Inserts the request unless the item already has one; the new row, or undefined then. */
export async function insertRefundRequestOnce(tx: Db, values: NewRefundRequest) {
  const [row] = await tx
    .insert(refundRequests)
    .values(values)
    .onConflictDoNothing({ target: refundRequests.orderItemId })
    .returning();
  return row;
}

/** The refund request, locked until the transaction ends, or undefined. */
export async function lockRefundRequest(tx: Db, id: string) {
  const [row] = await tx.select().from(refundRequests).where(eq(refundRequests.id, id)).for("update");
  return row;
}

export async function updateRefundRequest(
  tx: Db,
  id: string,
  values: Pick<NewRefundRequest, "status" | "sellerNote" | "platformNote" | "updatedAt" | "resolvedAt">,
) {
  const [row] = await tx.update(refundRequests).set(values).where(eq(refundRequests.id, id)).returning();
  return row;
}

export async function findOrderItem(tx: Db, orderItemId: string) {
  const [row] = await tx.select().from(orderItems).where(eq(orderItems.id, orderItemId));
  return row;
}

export async function markItemRefunded(tx: Db, orderItemId: string): Promise<void> {
  await tx.update(orderItems).set({ refundStatus: "refunded" }).where(eq(orderItems.id, orderItemId));
}

/** The refund status of every item of the order. */
export async function itemRefundStatuses(tx: Db, orderId: string): Promise<string[]> {
  const rows = await tx
    .select({ refundStatus: orderItems.refundStatus })
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId));
  return rows.map((row) => row.refundStatus);
}

/** The order's payment status, locked until the transaction ends, or undefined. */
export async function lockOrderPaymentStatus(tx: Db, orderId: string): Promise<string | undefined> {
  const [row] = await tx
    .select({ paymentStatus: orders.paymentStatus })
    .from(orders)
    .where(eq(orders.id, orderId))
    .for("no key update");
  return row?.paymentStatus;
}

export async function setOrderPaymentStatus(
  tx: Db,
  orderId: string,
  paymentStatus: string,
  now: Date,
): Promise<void> {
  await tx.update(orders).set({ paymentStatus, updatedAt: now }).where(eq(orders.id, orderId));
}

/** Refund requests as lists show them, a page at a time, newest first: one seller's, one status's or all. */
export async function listRefunds(
  db: Db,
  filter: { sellerId?: string; buyerId?: string; status?: RefundStatus; payout?: PayoutState },
  page: number,
) {
  const where = and(
    filter.sellerId === undefined ? undefined : eq(refundRequests.sellerId, filter.sellerId),
    filter.buyerId === undefined ? undefined : eq(refundRequests.buyerId, filter.buyerId),
    filter.status ? eq(refundRequests.status, filter.status) : undefined,
    filter.payout
      ? sql`exists (select 1 from ${refundPayouts} where ${refundPayouts.refundId} = ${refundRequests.id} and ${refundPayouts.state} = ${filter.payout})`
      : undefined,
  );
  const [rows, [counted]] = await Promise.all([
    db
      .select({
        refund: refundRequests,
        item: orderItems,
        customer: orders.customerInfo,
        payout: refundPayouts,
      })
      .from(refundRequests)
      .innerJoin(orderItems, eq(orderItems.id, refundRequests.orderItemId))
      .innerJoin(orders, eq(orders.id, refundRequests.orderId))
      .leftJoin(refundPayouts, eq(refundPayouts.refundId, refundRequests.id))
      .where(where)
      .orderBy(desc(refundRequests.createdAt), desc(refundRequests.id))
      .limit(REFUNDS_PAGE_SIZE)
      .offset((page - 1) * REFUNDS_PAGE_SIZE),
    db.select({ n: count() }).from(refundRequests).where(where),
  ]);
  const items: RefundListItem[] = rows.map(({ refund, item, customer, payout }) => ({
    id: refund.id,
    orderId: refund.orderId,
    orderItemId: refund.orderItemId,
    productName: item.productName,
    quantity: item.quantity,
    amount: Number(lineTotal(item.price, item.quantity)),
    buyerName: customer.fullName,
    platformSold: refund.sellerId === null,
    reason: refund.reason,
    status: refund.status as RefundStatus,
    sellerDueAt: refund.sellerDueAt.toISOString(),
    sellerNote: refund.sellerNote,
    platformNote: refund.platformNote,
    createdAt: refund.createdAt.toISOString(),
    resolvedAt: refund.resolvedAt?.toISOString() ?? null,
    payout: payout ? toListPayout(payout, filter.sellerId !== undefined) : null,
  }));
  return { items, total: counted?.n ?? 0, page, pageSize: REFUNDS_PAGE_SIZE };
}

export type PayoutRow = typeof refundPayouts.$inferSelect;
export type NewPayout = typeof refundPayouts.$inferInsert;

/** A payout as admins see it. */
export function toAdminPayout(row: PayoutRow): AdminPayout {
  return {
    state: row.state as PayoutState,
    amountCents: row.amountCents,
    destination: row.destination as PayoutDestination,
    completedAt: row.completedAt?.toISOString() ?? null,
    provider: row.provider,
    providerRefundRef: row.providerRefundRef,
    failureReason: row.failureReason,
    attempts: row.attempts,
    transferReference: row.transferReference,
    transferredOn: row.transferredOn,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Sellers see how the money went back, not the provider's or the bank's references. */
function toListPayout(row: PayoutRow, forSeller: boolean): AdminPayout {
  const payout = toAdminPayout(row);
  return forSeller ? { ...payout, providerRefundRef: null, transferReference: null } : payout;
}

/** The order's figures a payout is computed from. */
export async function findOrderForPayout(tx: Db, orderId: string) {
  const [row] = await tx
    .select({
      userId: orders.userId,
      subtotal: orders.subtotal,
      totalAmount: orders.totalAmount,
      paymentMethod: orders.paymentMethod,
      customerInfo: orders.customerInfo,
    })
    .from(orders)
    .where(eq(orders.id, orderId));
  return row;
}

/** The order's attempt a provider took the money in (the newest, should there be two), or undefined. */
export async function findPaidPayment(tx: Db, orderId: string) {
  const [row] = await tx
    .select()
    .from(payments)
    .where(and(eq(payments.orderId, orderId), eq(payments.state, "paid")))
    .orderBy(desc(payments.attempt))
    .limit(1);
  return row;
}

export async function findPaymentRef(db: Db, paymentId: string): Promise<string | null> {
  const [row] = await db
    .select({ providerRef: payments.providerRef })
    .from(payments)
    .where(eq(payments.id, paymentId));
  return row?.providerRef ?? null;
}

/** Cents the order's other refunds pay back (whatever their state: a refused one is retried). */
export async function refundedCents(tx: Db, orderId: string, exceptRefundId: string): Promise<number> {
  const [row] = await tx
    .select({ cents: sql<string>`coalesce(sum(${refundPayouts.amountCents}), 0)` })
    .from(refundPayouts)
    .where(and(eq(refundPayouts.orderId, orderId), ne(refundPayouts.refundId, exceptRefundId)));
  return Number(row?.cents ?? 0);
}

export async function insertPayout(tx: Db, values: NewPayout): Promise<PayoutRow> {
  const [row] = await tx.insert(refundPayouts).values(values).returning();
  if (!row) throw new Error("refund payout insert returned nothing");
  return row;
}

export async function findPayout(db: Db, refundId: string): Promise<PayoutRow | undefined> {
  const [row] = await db.select().from(refundPayouts).where(eq(refundPayouts.refundId, refundId));
  return row;
}

/** The payout, locked until the transaction ends, or undefined. */
export async function lockPayout(tx: Db, refundId: string): Promise<PayoutRow | undefined> {
  const [row] = await tx
    .select()
    .from(refundPayouts)
    .where(eq(refundPayouts.refundId, refundId))
    .for("update");
  return row;
}

/** The payout a provider's refund reference belongs to, locked, or undefined. */
export async function lockPayoutByProviderRef(tx: Db, provider: string, providerRefundRef: string) {
  const [row] = await tx
    .select()
    .from(refundPayouts)
    .where(and(eq(refundPayouts.provider, provider), eq(refundPayouts.providerRefundRef, providerRefundRef)))
    .for("update");
  return row;
}

export async function updatePayout(
  tx: Db,
  refundId: string,
  values: Partial<Omit<NewPayout, "refundId" | "orderId" | "createdAt">>,
): Promise<PayoutRow> {
  const [row] = await tx
    .update(refundPayouts)
    .set(values)
    .where(eq(refundPayouts.refundId, refundId))
    .returning();
  if (!row) throw new Error("refund payout vanished");
  return row;
}

/** Counts one more call to the provider. */
export async function countPayoutAttempt(db: Db, refundId: string, now: Date): Promise<void> {
  await db
    .update(refundPayouts)
    .set({ attempts: sql`${refundPayouts.attempts} + 1`, updatedAt: now })
    .where(eq(refundPayouts.refundId, refundId));
}

/** What the buyer's refund-sent e-mail says: to whom, about which item. */
export async function findPayoutMailFacts(db: Db, refundId: string) {
  const [row] = await db
    .select({
      email: user.email,
      customer: orders.customerInfo,
      productName: orderItems.productName,
    })
    .from(refundRequests)
    .innerJoin(user, eq(user.id, refundRequests.buyerId))
    .innerJoin(orders, eq(orders.id, refundRequests.orderId))
    .innerJoin(orderItems, eq(orderItems.id, refundRequests.orderItemId))
    .where(eq(refundRequests.id, refundId));
  return row;
}

export async function findRefundRequest(db: Db, id: string) {
  const [row] = await db.select().from(refundRequests).where(eq(refundRequests.id, id));
  return row;
}

/** A refund request's messages, oldest first, with each writer's first name. */
export async function listRefundMessages(db: Db, refundId: string) {
  return db
    .select({
      id: refundMessages.id,
      authorId: refundMessages.authorId,
      authorRole: refundMessages.authorRole,
      firstName: user.firstName,
      body: refundMessages.body,
      createdAt: refundMessages.createdAt,
    })
    .from(refundMessages)
    .leftJoin(user, eq(user.id, refundMessages.authorId))
    .where(eq(refundMessages.refundId, refundId))
    .orderBy(asc(refundMessages.createdAt), asc(refundMessages.id));
}

export async function insertRefundMessage(tx: Db, values: typeof refundMessages.$inferInsert) {
  const [row] = await tx.insert(refundMessages).values(values).returning({ id: refundMessages.id });
  return row;
}

/** How many messages the person wrote on any refund request since `since`. */
export async function messagesWrittenSince(db: Db, authorId: string, since: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(refundMessages)
    .where(and(eq(refundMessages.authorId, authorId), gte(refundMessages.createdAt, since)));
  return row?.n ?? 0;
}
