import { and, count, desc, eq } from "drizzle-orm";
import { lineTotal } from "#domain/money";
import { REFUNDS_PAGE_SIZE, type RefundListItem, type RefundStatus } from "#domain/refunds";
import type { Database, Transaction } from "#server/db/client";
import { refundRequests } from "#server/db/schema/after-sale";
import { user } from "#server/db/schema/auth";
import { orderItems, orders } from "#server/db/schema/orders";

type Db = Database | Transaction;
export type RefundRow = typeof refundRequests.$inferSelect;
export type NewRefundRequest = typeof refundRequests.$inferInsert;

/** The account's e-mail address, for mail about a refund. */
export async function findAccountEmail(db: Db, userId: string): Promise<string | undefined> {
  const [row] = await db.select({ email: user.email }).from(user).where(eq(user.id, userId));
  return row?.email;
}

/** The item with its order, locked until the transaction ends, if it belongs to this buyer's order. */
export async function lockBuyersOrderItem(tx: Db, ids: { orderId: string; itemId: string }, buyerId: string) {
  const [found] = await tx
    .select({ item: orderItems, order: orders })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .where(and(eq(orderItems.id, ids.itemId), eq(orders.id, ids.orderId), eq(orders.userId, buyerId)))
    .for("update");
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
    .for("update");
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
  filter: { sellerId?: string; status?: RefundStatus },
  page: number,
) {
  const where = and(
    filter.sellerId === undefined ? undefined : eq(refundRequests.sellerId, filter.sellerId),
    filter.status ? eq(refundRequests.status, filter.status) : undefined,
  );
  const [rows, [counted]] = await Promise.all([
    db
      .select({ refund: refundRequests, item: orderItems, customer: orders.customerInfo })
      .from(refundRequests)
      .innerJoin(orderItems, eq(orderItems.id, refundRequests.orderItemId))
      .innerJoin(orders, eq(orders.id, refundRequests.orderId))
      .where(where)
      .orderBy(desc(refundRequests.createdAt), desc(refundRequests.id))
      .limit(REFUNDS_PAGE_SIZE)
      .offset((page - 1) * REFUNDS_PAGE_SIZE),
    db.select({ n: count() }).from(refundRequests).where(where),
  ]);
  const items: RefundListItem[] = rows.map(({ refund, item, customer }) => ({
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
  }));
  return { items, total: counted?.n ?? 0, page, pageSize: REFUNDS_PAGE_SIZE };
}
