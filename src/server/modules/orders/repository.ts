import { and, between, count, desc, eq, ilike, inArray, or, type SQL, sql } from "drizzle-orm";
import {
  ADMIN_ORDERS_PAGE_SIZE,
  fullOrderIdPattern,
  type Order,
  type OrderStats,
  type PaymentStatus,
  shortOrderIdPattern,
} from "#domain/checkout";
import { type PayoutDestination, type PayoutState, refundableUntil } from "#domain/refunds";
import {
  type DeliveredBy,
  type ItemShipping,
  itemRefundableUntil,
  type ShippingState,
} from "#domain/shipping";
import { vatCheckSchema } from "#domain/tax";
import type { Db } from "#server/db/client";
import { onSale } from "#server/db/products";
import { refundPayouts, refundRequests } from "#server/db/schema/after-sale";
import { user } from "#server/db/schema/auth";
import { fxRates, products } from "#server/db/schema/catalog";
import { orderItems, orders } from "#server/db/schema/orders";
import { containsPattern } from "#server/lib/like";

type OrderRow = typeof orders.$inferSelect;
type ItemRow = typeof orderItems.$inferSelect;
type RefundRow = typeof refundRequests.$inferSelect & { payout: PayoutRow | null };
type PayoutRow = typeof refundPayouts.$inferSelect;
export type NewOrder = typeof orders.$inferInsert;
export type NewOrderItem = typeof orderItems.$inferInsert;

/** The order as answers show it; `refundWindowDays` is the server's REFUND_WINDOW_DAYS. */
function toOrder(row: OrderRow, items: ItemRow[], refunds: RefundRow[], refundWindowDays: number): Order {
  return {
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    refundableUntil: refundableUntil(row.createdAt, refundWindowDays).toISOString(),
    paymentMethod: row.paymentMethod as Order["paymentMethod"],
    paymentStatus: row.paymentStatus as Order["paymentStatus"],
    isPaid: row.isPaid,
    cancelledAt: row.cancelledAt?.toISOString() ?? null,
    subtotal: Number(row.subtotal),
    tax: Number(row.tax),
    totalAmount: Number(row.totalAmount),
    buyerCountry: row.buyerCountry,
    buyerCompany: row.buyerCompany,
    buyerTaxId: row.buyerTaxId,
    taxJurisdiction: row.taxJurisdiction,
    taxLabel: row.taxLabel,
    taxRate: row.taxRate,
    reverseCharge: row.reverseCharge,
    taxNote: row.taxNote,
    vatCheck:
      row.vatCheckRegister && row.vatCheckStatus && row.vatCheckedAt
        ? vatCheckSchema.parse({
            register: row.vatCheckRegister,
            status: row.vatCheckStatus,
            reference: row.vatCheckReference,
            checkedAt: row.vatCheckedAt.toISOString(),
          })
        : null,
    currency: row.currency,
    fxRate: Number(row.fxRate),
    customerInfo: row.customerInfo,
    shippingAddress: row.shippingAddress ?? null,
    items: items.map((item) => ({
      id: item.id,
      productId: item.productId,
      productName: item.productName,
      price: Number(item.price),
      pricingUnit: item.pricingUnit,
      quantity: item.quantity,
      vendor: item.vendor,
      imageUrl: item.imageUrl,
      refundStatus: item.refundStatus as Order["items"][number]["refundStatus"],
      tax: Number(item.tax),
      refund: toItemRefund(refunds.find((r) => r.orderItemId === item.id)),
      shipping: toItemShipping(item),
      refundableUntil: itemRefundableUntil(item, row.createdAt, refundWindowDays)?.toISOString() ?? null,
    })),
  };
}

/** Items without a shipping state (digital, or bought before shipping existed) were delivered at payment. */
export function toItemShipping(item: ItemRow): ItemShipping | null {
  if (!item.shippingState) return null;
  return {
    state: item.shippingState as ShippingState,
    carrier: item.carrier,
    trackingNumber: item.trackingNumber,
    shippedAt: item.shippedAt?.toISOString() ?? null,
    deliveredAt: item.deliveredAt?.toISOString() ?? null,
    deliveredBy: item.deliveredBy as DeliveredBy | null,
  };
}

function toItemRefund(refund: RefundRow | undefined): Order["items"][number]["refund"] {
  if (!refund) return null;
  return {
    id: refund.id,
    status: refund.status as NonNullable<Order["items"][number]["refund"]>["status"],
    reason: refund.reason,
    sellerDueAt: refund.sellerDueAt.toISOString(),
    sellerNote: refund.sellerNote,
    platformNote: refund.platformNote,
    createdAt: refund.createdAt.toISOString(),
    resolvedAt: refund.resolvedAt?.toISOString() ?? null,
    payout: refund.payout
      ? {
          state: refund.payout.state as PayoutState,
          amountCents: refund.payout.amountCents,
          destination: refund.payout.destination as PayoutDestination,
          // A transfer is sent on the day the operator made it, not the day it was recorded.
          completedAt: refund.payout.transferredOn ?? refund.payout.completedAt?.toISOString() ?? null,
        }
      : null,
  };
}

async function loadOrderRows(db: Db, where: SQL | undefined, page?: { limit: number; offset: number }) {
  const query = db.select().from(orders).where(where).orderBy(desc(orders.createdAt), desc(orders.id));
  const rows = await (page ? query.limit(page.limit).offset(page.offset) : query);
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [items, refunds] = await Promise.all([
    db.select().from(orderItems).where(inArray(orderItems.orderId, ids)),
    db
      .select({ refund: refundRequests, payout: refundPayouts })
      .from(refundRequests)
      .leftJoin(refundPayouts, eq(refundPayouts.refundId, refundRequests.id))
      .where(inArray(refundRequests.orderId, ids))
      .then((rows) => rows.map(({ refund, payout }) => ({ ...refund, payout }))),
  ]);
  return rows.map((row) => ({
    row,
    items: items.filter((item) => item.orderId === row.id),
    refunds: refunds.filter((refund) => refund.orderId === row.id),
  }));
}

async function loadOrders(db: Db, where: SQL | undefined, refundWindowDays: number): Promise<Order[]> {
  return (await loadOrderRows(db, where)).map(({ row, items, refunds }) =>
    toOrder(row, items, refunds, refundWindowDays),
  );
}

/** The user's orders with their items, newest first. `refundWindowDays`: REFUND_WINDOW_DAYS. */
export async function listOrdersOfUser(db: Db, userId: string, refundWindowDays: number): Promise<Order[]> {
  return loadOrders(db, eq(orders.userId, userId), refundWindowDays);
}

/** The order with this id, if `ownerId` placed it; any order's when `ownerId` is null (admins, the server). */
export async function findOrder(
  db: Db,
  orderId: string,
  ownerId: string | null,
  refundWindowDays: number,
): Promise<Order | undefined> {
  const where =
    ownerId === null ? eq(orders.id, orderId) : and(eq(orders.id, orderId), eq(orders.userId, ownerId));
  const [order] = await loadOrders(db, where, refundWindowDays);
  return order;
}

/**
 * The orders an admin's search names: a full id is that order; 8 hex characters are the orders whose id
 * starts with them (a range of the primary key); any text is also looked for in the buyer's e-mail and
 * name, any case (trigram indexes on both).
 */
function orderSearch(db: Db, text: string): SQL | undefined {
  if (fullOrderIdPattern.test(text)) return eq(orders.id, text.toLowerCase());
  const pattern = containsPattern(text);
  const buyers = db
    .select({ id: user.id })
    .from(user)
    .where(or(ilike(user.email, pattern), ilike(user.name, pattern)));
  const byBuyer = inArray(orders.userId, buyers);
  if (!shortOrderIdPattern.test(text)) return byBuyer;
  const prefix = text.toLowerCase();
  return or(
    between(orders.id, `${prefix}-0000-0000-0000-000000000000`, `${prefix}-ffff-ffff-ffff-ffffffffffff`),
    byBuyer,
  );
}

/** One page of every order for admins, optionally one status or a search, with the buyer's e-mail. */
export async function listAllOrders(
  db: Db,
  query: { page: number; status?: PaymentStatus; q?: string },
  refundWindowDays: number,
) {
  const where = and(
    query.status ? eq(orders.paymentStatus, query.status) : undefined,
    query.q ? orderSearch(db, query.q) : undefined,
  );
  const [found, [counted]] = await Promise.all([
    loadOrderRows(db, where, {
      limit: ADMIN_ORDERS_PAGE_SIZE,
      offset: (query.page - 1) * ADMIN_ORDERS_PAGE_SIZE,
    }),
    db.select({ n: count() }).from(orders).where(where),
  ]);
  const ownerIds = [...new Set(found.map(({ row }) => row.userId))];
  const owners = ownerIds.length
    ? await db
        .select({ id: user.id, email: user.email, name: user.name })
        .from(user)
        .where(inArray(user.id, ownerIds))
    : [];
  return {
    items: found.map(({ row, items, refunds }) => ({
      ...toOrder(row, items, refunds, refundWindowDays),
      accountEmail: owners.find((o) => o.id === row.userId)?.email ?? "",
      accountName: owners.find((o) => o.id === row.userId)?.name ?? "",
    })),
    total: counted?.n ?? 0,
    page: query.page,
    pageSize: ADMIN_ORDERS_PAGE_SIZE,
  };
}

/** The dashboard's cards: every order counts; spending and completion count confirmed or paid ones. */
export async function orderStats(db: Db, userId: string): Promise<OrderStats> {
  // A fully refunded order is not money spent; a partly refunded one still counts in full.
  const done = sql`((${orders.isPaid} or ${orders.paymentStatus} = 'mock_confirmed') and ${orders.paymentStatus} <> 'refunded')`;
  const [row] = await db
    .select({
      totalOrders: sql<number>`count(*)::int`,
      totalSpent: sql<string>`coalesce(sum(${orders.totalAmount}) filter (where ${done}), 0)`,
      completedOrders: sql<number>`(count(*) filter (where ${done}))::int`,
    })
    .from(orders)
    .where(eq(orders.userId, userId));
  return {
    totalOrders: row?.totalOrders ?? 0,
    totalSpent: Number(row?.totalSpent ?? 0),
    completedOrders: row?.completedOrders ?? 0,
  };
}

/** The id of the order this user placed with this idempotency key, or null. */
export async function findOrderIdByIdempotencyKey(
  db: Db,
  userId: string,
  key: string,
): Promise<string | null> {
  const [row] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.idempotencyKey, key)));
  return row?.id ?? null;
}

/** The products among `ids` that are on sale. */
export async function findActiveProducts(db: Db, ids: string[]) {
  return db
    .select()
    .from(products)
    .where(and(inArray(products.id, ids), onSale()));
}

/** The names of the products among `ids` that exist, on sale or not. */
export async function productNames(db: Db, ids: string[]): Promise<string[]> {
  const rows = await db.select({ name: products.name }).from(products).where(inArray(products.id, ids));
  return rows.map((row) => row.name);
}

export async function findFxRate(db: Db, currency: string) {
  const [row] = await db.select().from(fxRates).where(eq(fxRates.currencyCode, currency));
  return row;
}

/** Inserts the order unless this user already has one with its idempotency key; its id, or null then. */
export async function insertOrderOnce(tx: Db, values: NewOrder): Promise<string | null> {
  const [row] = await tx
    .insert(orders)
    .values(values)
    .onConflictDoNothing({ target: [orders.userId, orders.idempotencyKey] })
    .returning({ id: orders.id });
  return row?.id ?? null;
}

export async function insertOrderItems(tx: Db, rows: NewOrderItem[]): Promise<void> {
  await tx.insert(orderItems).values(rows);
}

/** The address and verification state of the account that placed the order. */
export async function findOrderAccount(db: Db, orderId: string) {
  const [row] = await db
    .select({ email: user.email, emailVerified: user.emailVerified })
    .from(orders)
    .innerJoin(user, eq(user.id, orders.userId))
    .where(eq(orders.id, orderId));
  return row;
}
