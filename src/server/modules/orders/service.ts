import { and, count, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import {
  ADMIN_ORDERS_PAGE_SIZE,
  MAX_QUANTITY,
  type Order,
  type OrderStats,
  type PaymentStatus,
  type PriceChange,
  type PriceChangedDetails,
  type ProductUnavailableDetails,
  type placeOrderSchema,
} from "#domain/checkout";
import { computeTotals, MONEY_COLUMN_MAX } from "#domain/money";
import { priceChanges } from "#domain/price-changes";
import { refundableUntil } from "#domain/refunds";
import type { Database } from "#server/db/client";
import { refundRequests } from "#server/db/schema/after-sale";
import { user } from "#server/db/schema/auth";
import { fxRates, products } from "#server/db/schema/catalog";
import { orderItems, orders } from "#server/db/schema/orders";
import { AppError, ValidationError } from "#server/errors";
import { type Settlement, settleOrder, storeReferral } from "#server/modules/orders/settlement";
import type { Referral } from "#server/modules/referrals/service";

type PlaceOrder = z.output<typeof placeOrderSchema>;
type OrderRow = typeof orders.$inferSelect;
type ItemRow = typeof orderItems.$inferSelect;

export class ProductUnavailable extends AppError {
  constructor(productIds: string[], names: string[]) {
    super(
      409,
      "PRODUCT_UNAVAILABLE",
      names.length > 0
        ? `These items are no longer available: ${names.join(", ")}. Remove them from your cart and try again.`
        : "Some items in your cart are no longer available. Remove them and try again.",
      { productIds } satisfies ProductUnavailableDetails,
    );
  }
}

/** A price is not the one the buyer was shown: nothing is ordered, the buyer sees the new prices first. */
export class PriceChanged extends AppError {
  constructor(changes: PriceChange[]) {
    super(
      409,
      "PRICE_CHANGED",
      `Prices changed since these items were added to your cart: ${changes.map((c) => c.name).join(", ")}. Review the new total and place your order again.`,
      { changes } satisfies PriceChangedDetails,
    );
  }
}

type RefundRow = typeof refundRequests.$inferSelect;

/** The order as answers show it; `refundWindowDays` is the server's REFUND_WINDOW_DAYS. */
export function toOrder(
  row: OrderRow,
  items: ItemRow[],
  refunds: RefundRow[],
  refundWindowDays: number,
): Order {
  return {
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    refundableUntil: refundableUntil(row.createdAt, refundWindowDays).toISOString(),
    paymentMethod: row.paymentMethod as Order["paymentMethod"],
    paymentStatus: row.paymentStatus as Order["paymentStatus"],
    isPaid: row.isPaid,
    subtotal: Number(row.subtotal),
    tax: Number(row.tax),
    totalAmount: Number(row.totalAmount),
    currency: row.currency,
    fxRate: Number(row.fxRate),
    customerInfo: row.customerInfo,
    items: items.map((item) => ({
      id: item.id,
      productId: item.productId,
      productName: item.productName,
      price: Number(item.price),
      quantity: item.quantity,
      vendor: item.vendor,
      imageUrl: item.imageUrl,
      refundStatus: item.refundStatus as Order["items"][number]["refundStatus"],
      refund: toItemRefund(refunds.find((r) => r.orderItemId === item.id)),
    })),
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
  };
}

async function loadOrderRows(db: Database, where: SQL | undefined, page?: { limit: number; offset: number }) {
  const query = db.select().from(orders).where(where).orderBy(desc(orders.createdAt), desc(orders.id));
  const rows = await (page ? query.limit(page.limit).offset(page.offset) : query);
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [items, refunds] = await Promise.all([
    db.select().from(orderItems).where(inArray(orderItems.orderId, ids)),
    db.select().from(refundRequests).where(inArray(refundRequests.orderId, ids)),
  ]);
  return rows.map((row) => ({
    row,
    items: items.filter((item) => item.orderId === row.id),
    refunds: refunds.filter((refund) => refund.orderId === row.id),
  }));
}

/** Orders with their items, newest first; `where` picks whose. `refundWindowDays`: REFUND_WINDOW_DAYS. */
export async function loadOrders(
  db: Database,
  where: SQL | undefined,
  refundWindowDays: number,
): Promise<Order[]> {
  return (await loadOrderRows(db, where)).map(({ row, items, refunds }) =>
    toOrder(row, items, refunds, refundWindowDays),
  );
}

/** One page of every order for admins, with the e-mail of the account that placed each. */
export async function listAllOrders(
  db: Database,
  query: { page: number; status?: PaymentStatus },
  refundWindowDays: number,
) {
  const where = query.status ? eq(orders.paymentStatus, query.status) : undefined;
  const [found, [counted]] = await Promise.all([
    loadOrderRows(db, where, {
      limit: ADMIN_ORDERS_PAGE_SIZE,
      offset: (query.page - 1) * ADMIN_ORDERS_PAGE_SIZE,
    }),
    db.select({ n: count() }).from(orders).where(where),
  ]);
  const ownerIds = [...new Set(found.map(({ row }) => row.userId))];
  const owners = ownerIds.length
    ? await db.select({ id: user.id, email: user.email }).from(user).where(inArray(user.id, ownerIds))
    : [];
  return {
    items: found.map(({ row, items, refunds }) => ({
      ...toOrder(row, items, refunds, refundWindowDays),
      accountEmail: owners.find((o) => o.id === row.userId)?.email ?? "",
    })),
    total: counted?.n ?? 0,
    page: query.page,
    pageSize: ADMIN_ORDERS_PAGE_SIZE,
  };
}

/** The dashboard's cards: every order counts; spending and completion count confirmed or paid ones. */
export async function orderStats(db: Database, userId: string): Promise<OrderStats> {
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

/** The rate the buyer saw prices at (buffer included); USD, or a currency without a rate, is 1. */
async function displayRate(db: Database, currency: string): Promise<{ currency: string; rate: string }> {
  if (currency === "USD") return { currency, rate: "1" };
  const [row] = await db.select().from(fxRates).where(eq(fxRates.currencyCode, currency));
  if (!row) return { currency: "USD", rate: "1" };
  return { currency, rate: (Number(row.rateToUsd) * (1 + Number(row.fxBuffer))).toFixed(8) };
}

/**
 * Places an order from product ids and quantities only: prices come from the database, totals are
 * computed here, the order and its items are written in one transaction (with the buyer's referral, so
 * a later settlement can still pay the reseller), then paid and delivered. The same idempotency key from
 * the same user answers with the order it already made, and resumes its payment if that never finished
 * (a crash after the insert) or was refused.
 */
export async function placeOrder(
  s: Settlement,
  userId: string,
  input: PlaceOrder,
  referral: Referral | null,
): Promise<{ order: Order; created: boolean }> {
  const { db } = s;
  const existing = await findByKey(db, userId, input.idempotencyKey);
  if (existing) {
    await settleOrder(s, existing, "buyer", { paymentMethod: input.paymentMethod });
    return { order: await reload(s, existing), created: false };
  }

  const quantities = new Map<string, number>();
  for (const item of input.items) {
    quantities.set(item.productId, (quantities.get(item.productId) ?? 0) + item.quantity);
  }
  for (const quantity of quantities.values()) {
    if (quantity > MAX_QUANTITY) throw new ValidationError(`Quantity must be at most ${MAX_QUANTITY}`);
  }
  const ids = [...quantities.keys()];
  const found = await db
    .select()
    .from(products)
    .where(and(inArray(products.id, ids), eq(products.isActive, true)));
  const missing = ids.filter((id) => !found.some((p) => p.id === id));
  if (missing.length > 0) {
    const names = await db
      .select({ name: products.name })
      .from(products)
      .where(inArray(products.id, missing));
    throw new ProductUnavailable(
      missing,
      names.map((n) => n.name),
    );
  }
  const changes = priceChanges(input.items, found);
  if (changes.length) throw new PriceChanged(changes);

  const lines = found.map((product) => ({ product, quantity: quantities.get(product.id) ?? 1 }));
  const totals = computeTotals(lines.map(({ product, quantity }) => ({ price: product.price, quantity })));
  // Prices are bounded so this cannot happen with today's limits; products priced before them could.
  if (Number(totals.total) > Number(MONEY_COLUMN_MAX)) {
    throw new ValidationError("This order's total is too large. Please split it into smaller orders.");
  }
  const { currency, rate } = await displayRate(db, input.currency);

  const orderId = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(orders)
      .values({
        userId,
        subtotal: totals.subtotal,
        tax: totals.tax,
        totalAmount: totals.total,
        currency,
        fxRate: rate,
        paymentMethod: input.paymentMethod,
        paymentStatus: "pending",
        isPaid: false,
        customerInfo: {
          fullName: input.fullName,
          email: input.email,
          address: input.address,
          city: input.city,
          country: input.country,
        },
        idempotencyKey: input.idempotencyKey,
        referral: storeReferral(referral),
      })
      .onConflictDoNothing({ target: [orders.userId, orders.idempotencyKey] })
      .returning({ id: orders.id });
    if (!row) return null; // a concurrent submit with the same key won
    await tx.insert(orderItems).values(
      lines.map(({ product, quantity }) => ({
        orderId: row.id,
        productId: product.id,
        productName: product.name,
        price: product.price,
        quantity,
        vendor: product.vendor,
        imageUrl: product.imageUrl,
        sellerId: product.sellerId,
        category: product.category,
      })),
    );
    return row.id;
  });
  if (!orderId) {
    const winner = await findByKey(db, userId, input.idempotencyKey);
    if (!winner) throw new Error("an order with this idempotency key vanished");
    return { order: await reload(s, winner), created: false };
  }

  await settleOrder(s, orderId, "buyer");
  return { order: await reload(s, orderId), created: true };
}

async function reload(s: Settlement, orderId: string): Promise<Order> {
  const [order] = await loadOrders(s.db, eq(orders.id, orderId), s.refundWindowDays);
  if (!order) throw new Error(`order ${orderId} vanished`);
  return order;
}

async function findByKey(db: Database, userId: string, key: string): Promise<string | null> {
  const [row] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.idempotencyKey, key)));
  return row?.id ?? null;
}
