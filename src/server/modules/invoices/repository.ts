import { and, eq } from "drizzle-orm";
import type { Database } from "#server/db/client";
import { orders } from "#server/db/schema/orders";
import { loadOrders } from "#server/modules/orders/service";

/** The order with this id, if `ownerId` placed it; any order's when `ownerId` is null (admins). */
export async function findInvoiceOrder(
  db: Database,
  orderId: string,
  ownerId: string | null,
  refundWindowDays: number,
) {
  const where =
    ownerId === null ? eq(orders.id, orderId) : and(eq(orders.id, orderId), eq(orders.userId, ownerId));
  const [order] = await loadOrders(db, where, refundWindowDays);
  return order;
}
