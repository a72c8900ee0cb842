import { and, asc, desc, eq, inArray, lte } from "drizzle-orm";
import { confirmedStatuses } from "#domain/checkout";
import type { DeliveredBy, Shipment, ShippingState } from "#domain/shipping";
import type { Db, Transaction } from "#server/db/client";
import { user } from "#server/db/schema/auth";
import { orderItems, orders } from "#server/db/schema/orders";
import { toItemShipping } from "#server/modules/orders/repository";

/** Only paid orders ship: a pending or failed order's items are nobody's to send. */
const paid = inArray(orders.paymentStatus, [...confirmedStatuses]);

const shipmentColumns = { item: orderItems, order: orders };

function toShipment({
  item,
  order,
}: {
  item: typeof orderItems.$inferSelect;
  order: typeof orders.$inferSelect;
}) {
  const shipping = toItemShipping(item);
  if (!shipping) throw new Error(`order item ${item.id} has no shipping state`);
  return {
    orderId: order.id,
    orderItemId: item.id,
    orderedAt: order.createdAt.toISOString(),
    productName: item.productName,
    quantity: item.quantity,
    refunded: item.refundStatus === "refunded",
    shipping,
    address: order.shippingAddress ?? null,
  } satisfies Shipment;
}

/** A seller's physical items of paid orders in one state: oldest order first while waiting, else newest. */
export async function listShipments(db: Db, sellerId: string, state: ShippingState, limit = 200) {
  const rows = await db
    .select(shipmentColumns)
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .where(
      and(
        eq(orderItems.sellerId, sellerId),
        eq(orderItems.shippingState, state),
        paid,
        // A refunded item waiting for shipment is no longer anything to send.
        state === "awaiting_shipment" ? eq(orderItems.refundStatus, "none") : undefined,
      ),
    )
    .orderBy(
      state === "awaiting_shipment" ? asc(orders.createdAt) : desc(orders.createdAt),
      asc(orderItems.id),
    )
    .limit(limit);
  return rows.map(toShipment);
}

/** One physical item with its order, locked until the transaction ends; undefined if it is not one. */
export async function lockShipment(tx: Transaction, orderItemId: string) {
  const [row] = await tx
    .select(shipmentColumns)
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .where(eq(orderItems.id, orderItemId))
    .for("no key update", { of: orderItems });
  return row;
}

export async function findShipment(db: Db, orderItemId: string): Promise<Shipment | undefined> {
  const [row] = await db
    .select(shipmentColumns)
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .where(eq(orderItems.id, orderItemId));
  return row?.item.shippingState ? toShipment(row) : undefined;
}

/** awaiting_shipment → shipped; true if this call moved it. */
export async function setShipped(
  tx: Transaction,
  orderItemId: string,
  values: { carrier: string; trackingNumber: string },
  now: Date,
): Promise<boolean> {
  const moved = await tx
    .update(orderItems)
    .set({ shippingState: "shipped", ...values, shippedAt: now })
    .where(and(eq(orderItems.id, orderItemId), eq(orderItems.shippingState, "awaiting_shipment")))
    .returning({ id: orderItems.id });
  return moved.length > 0;
}

/**
 * shipped → delivered, with the date the item's seller net settles (the refund window from now);
 * true if this call moved it, so of concurrent confirmations (the buyer's and the job's) one wins.
 */
export async function setDelivered(
  tx: Transaction,
  orderItemId: string,
  by: DeliveredBy,
  now: Date,
  settlesAt: Date,
): Promise<boolean> {
  const moved = await tx
    .update(orderItems)
    .set({ shippingState: "delivered", deliveredAt: now, deliveredBy: by, settlesAt })
    .where(and(eq(orderItems.id, orderItemId), eq(orderItems.shippingState, "shipped")))
    .returning({ id: orderItems.id });
  return moved.length > 0;
}

/** Shipped items of paid orders sent at or before `cutoff`, which now count as delivered. */
export async function dueForAutoDelivery(db: Db, cutoff: Date, limit: number): Promise<string[]> {
  const rows = await db
    .select({ id: orderItems.id })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .where(and(eq(orderItems.shippingState, "shipped"), lte(orderItems.shippedAt, cutoff), paid))
    .orderBy(asc(orderItems.shippedAt))
    .limit(limit);
  return rows.map((row) => row.id);
}

/** The buyer's account address (e-mails go there, as order confirmations do) and whether it is verified. */
export async function buyerAccount(db: Db, userId: string) {
  const [row] = await db
    .select({ email: user.email, emailVerified: user.emailVerified, name: user.name })
    .from(user)
    .where(eq(user.id, userId));
  return row;
}
