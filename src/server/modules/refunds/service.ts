import { and, count, desc, eq, type SQL } from "drizzle-orm";
import { hasRole } from "#domain/accounts";
import { confirmedStatuses } from "#domain/checkout";
import { lineTotal } from "#domain/money";
import {
  nextRefundStatus,
  REFUNDS_PAGE_SIZE,
  type RefundActor,
  type RefundListItem,
  type RefundStatus,
  refundableUntil,
  sellerDeadline,
} from "#domain/refunds";
import type { UserRow } from "#server/auth/guards";
import type { Database, Transaction } from "#server/db/client";
import { refundRequests } from "#server/db/schema/after-sale";
import { orderItems, orders } from "#server/db/schema/orders";
import { Conflict, NotFound } from "#server/errors";
import { recordAudit } from "#server/lib/audit";
import { revokeLicensesForItem } from "#server/modules/licenses/service";
import { assertTransition } from "#server/modules/orders/settlement";
import { cancelCommissionForItem } from "#server/modules/referrals/service";

type RefundRow = typeof refundRequests.$inferSelect;

const snapshot = (row: RefundRow) => ({
  status: row.status,
  sellerNote: row.sellerNote,
  platformNote: row.platformNote,
  resolvedAt: row.resolvedAt,
});

/**
 * The buyer asks for an item's refund: only on their own confirmed order, within the refund window,
 * once per item. The item's seller (recorded at purchase) has 3 business days to answer.
 */
export async function requestRefund(
  db: Database,
  buyer: UserRow,
  ids: { orderId: string; itemId: string },
  reason: string,
  windowDays: number,
  now = new Date(),
) {
  return db.transaction(async (tx) => {
    const [found] = await tx
      .select({ item: orderItems, order: orders })
      .from(orderItems)
      .innerJoin(orders, eq(orders.id, orderItems.orderId))
      .where(and(eq(orderItems.id, ids.itemId), eq(orders.id, ids.orderId), eq(orders.userId, buyer.id)))
      .for("update");
    if (!found) throw new NotFound("Order item not found.", "ORDER_ITEM_NOT_FOUND");
    const { item, order } = found;
    if (!confirmedStatuses.includes(order.paymentStatus as never)) {
      throw new Conflict("Only confirmed orders can be refunded.", "ORDER_NOT_CONFIRMED");
    }
    if (item.refundStatus === "refunded")
      throw new Conflict("This item has already been refunded.", "ALREADY_REFUNDED");
    if (now.getTime() > refundableUntil(order.createdAt, windowDays).getTime()) {
      throw new Conflict(
        `Refunds can be requested within ${windowDays} days of the order; this order is older.`,
        "REFUND_WINDOW_CLOSED",
      );
    }
    const [row] = await tx
      .insert(refundRequests)
      .values({
        orderItemId: item.id,
        orderId: order.id,
        buyerId: buyer.id,
        sellerId: item.sellerId,
        reason,
        status: "requested",
        sellerDueAt: sellerDeadline(now),
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing({ target: refundRequests.orderItemId })
      .returning();
    if (!row) throw new Conflict("A refund has already been requested for this item.", "REFUND_EXISTS");
    await recordAudit(tx, buyer, {
      action: "create",
      entityType: "refund",
      entityId: row.id,
      entityLabel: item.productName,
      before: null,
      after: { ...snapshot(row), reason, orderItemId: item.id },
    });
    return { refund: row, item };
  });
}

/**
 * Who `me` is for this request. The buyer escalates; the item's seller answers first; admins decide
 * escalated requests, and answer as the seller for items Stackbay sells itself (no seller recorded).
 */
function actorFor(me: UserRow, row: RefundRow): RefundActor | null {
  if (me.id === row.buyerId) return "buyer";
  if (row.sellerId && me.id === row.sellerId) return "seller";
  if (hasRole(me, "admin")) return row.sellerId === null && row.status === "requested" ? "seller" : "admin";
  return null;
}

/** Applies a decision; an approval refunds the item, revokes its licences and cancels its commission. */
export async function decideRefund(
  db: Database,
  me: UserRow,
  id: string,
  decision: "approve" | "reject" | "escalate",
  note: string | undefined,
  now = new Date(),
) {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(refundRequests).where(eq(refundRequests.id, id)).for("update");
    const actor = row ? actorFor(me, row) : null;
    // Someone with no part in the request learns nothing about it.
    if (!row || !actor) throw new NotFound("Refund request not found.", "REFUND_NOT_FOUND");
    const next = nextRefundStatus(
      { status: row.status as RefundStatus, sellerDueAt: row.sellerDueAt },
      actor,
      decision,
      now,
    );
    if ("refused" in next) throw new Conflict(next.refused, "REFUND_STEP_NOT_ALLOWED");
    const final = next.status === "approved" || next.status === "rejected";
    const [updated] = await tx
      .update(refundRequests)
      .set({
        status: next.status,
        ...(actor === "seller" && note ? { sellerNote: note } : {}),
        ...(actor === "admin" && note ? { platformNote: note } : {}),
        updatedAt: now,
        resolvedAt: final ? now : null,
      })
      .where(eq(refundRequests.id, id))
      .returning();
    if (!updated) throw new NotFound("Refund request not found.", "REFUND_NOT_FOUND");
    const [item] = await tx.select().from(orderItems).where(eq(orderItems.id, row.orderItemId));
    await recordAudit(tx, me, {
      action: "update",
      entityType: "refund",
      entityId: row.id,
      entityLabel: item?.productName ?? null,
      before: snapshot(row),
      after: snapshot(updated),
    });
    if (next.status === "approved") await refundItem(tx, row, now);
    return { refund: updated, actor, productName: item?.productName ?? "" };
  });
}

/** The approved refund's effects on the item, its licences, its commission and the order's status. */
async function refundItem(tx: Transaction, row: RefundRow, now: Date) {
  await tx.update(orderItems).set({ refundStatus: "refunded" }).where(eq(orderItems.id, row.orderItemId));
  await revokeLicensesForItem(tx, row.orderItemId, now);
  await cancelCommissionForItem(tx, row.orderItemId, now);
  const items = await tx
    .select({ refundStatus: orderItems.refundStatus })
    .from(orderItems)
    .where(eq(orderItems.orderId, row.orderId));
  const all = items.every((i) => i.refundStatus === "refunded");
  const next = all ? "refunded" : "partially_refunded";
  const [order] = await tx
    .select({ paymentStatus: orders.paymentStatus })
    .from(orders)
    .where(eq(orders.id, row.orderId))
    .for("update");
  if (!order) throw new NotFound("Order not found.", "ORDER_NOT_FOUND");
  assertTransition(order.paymentStatus, next, "refund");
  await tx.update(orders).set({ paymentStatus: next, updatedAt: now }).where(eq(orders.id, row.orderId));
}

/** Refund requests as lists show them, a page at a time, newest first. */
export async function listRefunds(db: Database, where: SQL | undefined, page: number) {
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
