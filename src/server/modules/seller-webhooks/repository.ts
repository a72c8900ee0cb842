import { and, arrayContains, asc, count, desc, eq, inArray, isNull, lte, sql } from "drizzle-orm";
import type { Db, Transaction } from "#server/db/client";
import { licenses } from "#server/db/schema/after-sale";
import { user } from "#server/db/schema/auth";
import { orderItems } from "#server/db/schema/orders";
import {
  sellerWebhookDeliveries,
  sellerWebhookEndpoints,
  sellerWebhookEvents,
} from "#server/db/schema/seller-api";
import { subscriptions } from "#server/db/schema/subscriptions";

export type WebhookEndpointRow = typeof sellerWebhookEndpoints.$inferSelect;
export type WebhookEventRow = typeof sellerWebhookEvents.$inferSelect;
export type WebhookDeliveryRow = typeof sellerWebhookDeliveries.$inferSelect;

export async function endpointsOf(db: Db, sellerId: string): Promise<WebhookEndpointRow[]> {
  return db
    .select()
    .from(sellerWebhookEndpoints)
    .where(eq(sellerWebhookEndpoints.sellerId, sellerId))
    .orderBy(desc(sellerWebhookEndpoints.createdAt), desc(sellerWebhookEndpoints.id));
}

/** Holds the seller's account row until the transaction ends, so endpoints made at once count in turn. */
export async function lockSellerRow(tx: Transaction, sellerId: string): Promise<void> {
  await tx.select({ id: user.id }).from(user).where(eq(user.id, sellerId)).for("update");
}

export async function endpointCount(db: Db, sellerId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(sellerWebhookEndpoints)
    .where(eq(sellerWebhookEndpoints.sellerId, sellerId));
  return row?.n ?? 0;
}

export async function insertEndpoint(
  tx: Transaction,
  values: typeof sellerWebhookEndpoints.$inferInsert,
): Promise<WebhookEndpointRow> {
  const [row] = await tx.insert(sellerWebhookEndpoints).values(values).returning();
  if (!row) throw new Error("the endpoint was not stored");
  return row;
}

/** One of the seller's endpoints, locked; another seller's is as absent as none. */
export async function lockEndpointOfSeller(
  tx: Transaction,
  sellerId: string,
  id: string,
): Promise<WebhookEndpointRow | undefined> {
  const [row] = await tx
    .select()
    .from(sellerWebhookEndpoints)
    .where(and(eq(sellerWebhookEndpoints.id, id), eq(sellerWebhookEndpoints.sellerId, sellerId)))
    .for("update");
  return row;
}

/** An endpoint by id, locked for the transaction. */
export async function lockEndpoint(tx: Transaction, id: string): Promise<WebhookEndpointRow | undefined> {
  const [row] = await tx
    .select()
    .from(sellerWebhookEndpoints)
    .where(eq(sellerWebhookEndpoints.id, id))
    .for("update");
  return row;
}

export async function updateEndpoint(
  db: Db,
  id: string,
  values: Partial<Omit<WebhookEndpointRow, "id" | "sellerId" | "createdAt">>,
): Promise<WebhookEndpointRow> {
  const [row] = await db
    .update(sellerWebhookEndpoints)
    .set(values)
    .where(eq(sellerWebhookEndpoints.id, id))
    .returning();
  if (!row) throw new Error("the endpoint vanished");
  return row;
}

export async function deleteEndpoint(tx: Transaction, id: string): Promise<void> {
  await tx.delete(sellerWebhookEndpoints).where(eq(sellerWebhookEndpoints.id, id));
}

/** The seller's live endpoints that chose `type`. */
export async function subscribedEndpoints(db: Db, sellerId: string, type: string) {
  return db
    .select({ id: sellerWebhookEndpoints.id })
    .from(sellerWebhookEndpoints)
    .where(
      and(
        eq(sellerWebhookEndpoints.sellerId, sellerId),
        isNull(sellerWebhookEndpoints.disabledAt),
        arrayContains(sellerWebhookEndpoints.events, [type]),
      ),
    );
}

export async function insertEvent(db: Db, values: WebhookEventRow): Promise<void> {
  await db.insert(sellerWebhookEvents).values(values);
}

export async function insertDeliveries(
  db: Db,
  values: (typeof sellerWebhookDeliveries.$inferInsert)[],
): Promise<WebhookDeliveryRow[]> {
  if (values.length === 0) return [];
  return db.insert(sellerWebhookDeliveries).values(values).returning();
}

const deliveryColumns = {
  delivery: sellerWebhookDeliveries,
  event: sellerWebhookEvents,
  endpoint: sellerWebhookEndpoints,
};

/** A delivery with its event and endpoint. */
export async function deliveryById(db: Db, id: string) {
  const [row] = await db
    .select(deliveryColumns)
    .from(sellerWebhookDeliveries)
    .innerJoin(sellerWebhookEvents, eq(sellerWebhookEvents.id, sellerWebhookDeliveries.eventId))
    .innerJoin(sellerWebhookEndpoints, eq(sellerWebhookEndpoints.id, sellerWebhookDeliveries.endpointId))
    .where(eq(sellerWebhookDeliveries.id, id));
  return row;
}

/** A delivery of the seller's, or undefined (another seller's is as absent as none). */
export async function deliveryOfSeller(db: Db, sellerId: string, id: string) {
  const row = await deliveryById(db, id);
  return row && row.endpoint.sellerId === sellerId ? row : undefined;
}

/** One page of the seller's deliveries, newest first, optionally of one endpoint. */
export async function deliveriesOf(
  db: Db,
  sellerId: string,
  endpointId: string | undefined,
  page: number,
  pageSize: number,
) {
  const where = and(
    eq(sellerWebhookEndpoints.sellerId, sellerId),
    endpointId ? eq(sellerWebhookDeliveries.endpointId, endpointId) : undefined,
  );
  const [items, [total]] = await Promise.all([
    db
      .select(deliveryColumns)
      .from(sellerWebhookDeliveries)
      .innerJoin(sellerWebhookEvents, eq(sellerWebhookEvents.id, sellerWebhookDeliveries.eventId))
      .innerJoin(sellerWebhookEndpoints, eq(sellerWebhookEndpoints.id, sellerWebhookDeliveries.endpointId))
      .where(where)
      .orderBy(desc(sellerWebhookDeliveries.createdAt), desc(sellerWebhookDeliveries.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db
      .select({ n: count() })
      .from(sellerWebhookDeliveries)
      .innerJoin(sellerWebhookEndpoints, eq(sellerWebhookEndpoints.id, sellerWebhookDeliveries.endpointId))
      .where(where),
  ]);
  return { items, total: total?.n ?? 0 };
}

/**
 * Takes pending deliveries that are due, of endpoints that are on, by moving their next attempt to
 * `lease`: no other run takes them until it passes. Answers their ids.
 */
export async function claimDueDeliveries(db: Db, now: Date, lease: Date, limit: number): Promise<string[]> {
  const due = db
    .select({ id: sellerWebhookDeliveries.id })
    .from(sellerWebhookDeliveries)
    .innerJoin(sellerWebhookEndpoints, eq(sellerWebhookEndpoints.id, sellerWebhookDeliveries.endpointId))
    .where(
      and(
        eq(sellerWebhookDeliveries.status, "pending"),
        lte(sellerWebhookDeliveries.nextAttemptAt, now),
        isNull(sellerWebhookEndpoints.disabledAt),
      ),
    )
    .orderBy(asc(sellerWebhookDeliveries.nextAttemptAt))
    .limit(limit);
  const rows = await db
    .update(sellerWebhookDeliveries)
    .set({ nextAttemptAt: lease })
    .where(inArray(sellerWebhookDeliveries.id, due))
    .returning({ id: sellerWebhookDeliveries.id });
  return rows.map((row) => row.id);
}

/** Takes one delivery for an attempt now (a test event, a replay), as `claimDueDeliveries` does. */
export async function claimDelivery(
  db: Db,
  id: string,
  values: { lease: Date; retryUntil?: Date },
): Promise<void> {
  await db
    .update(sellerWebhookDeliveries)
    .set({
      status: "pending",
      nextAttemptAt: values.lease,
      ...(values.retryUntil ? { retryUntil: values.retryUntil } : {}),
    })
    .where(eq(sellerWebhookDeliveries.id, id));
}

/**
 * Records an attempt of a delivery still held under `lease`; answers false (and writes nothing) when
 * another run took it meanwhile.
 */
export async function recordAttempt(
  db: Db,
  id: string,
  lease: Date,
  values: Pick<
    WebhookDeliveryRow,
    "status" | "nextAttemptAt" | "lastAttemptAt" | "responseStatus" | "durationMs" | "lastError"
  >,
): Promise<boolean> {
  const rows = await db
    .update(sellerWebhookDeliveries)
    .set({ ...values, attempts: sql`${sellerWebhookDeliveries.attempts} + 1` })
    .where(
      and(
        eq(sellerWebhookDeliveries.id, id),
        eq(sellerWebhookDeliveries.status, "pending"),
        eq(sellerWebhookDeliveries.nextAttemptAt, lease),
      ),
    )
    .returning({ id: sellerWebhookDeliveries.id });
  return rows.length > 0;
}

/** Ends every pending delivery of an endpoint as failed, with `reason` (it was disabled). */
export async function failPendingOf(db: Db, endpointId: string, reason: string): Promise<void> {
  await db
    .update(sellerWebhookDeliveries)
    .set({ status: "failed", nextAttemptAt: null, lastError: reason })
    .where(
      and(eq(sellerWebhookDeliveries.endpointId, endpointId), eq(sellerWebhookDeliveries.status, "pending")),
    );
}

/** The lines of an order that have a seller, for `order.paid`: each seller gets only theirs. */
export async function sellerLinesOf(db: Db, orderId: string) {
  return db
    .select({
      sellerId: orderItems.sellerId,
      orderItemId: orderItems.id,
      productId: orderItems.productId,
      productName: orderItems.productName,
      quantity: orderItems.quantity,
      price: orderItems.price,
    })
    .from(orderItems)
    .where(and(eq(orderItems.orderId, orderId), sql`${orderItems.sellerId} is not null`))
    .orderBy(orderItems.id);
}

const subscriptionColumns = {
  id: subscriptions.id,
  sellerId: orderItems.sellerId,
  productId: subscriptions.productId,
  productName: orderItems.productName,
  orderId: subscriptions.orderId,
  orderItemId: subscriptions.orderItemId,
  planId: subscriptions.planId,
  interval: subscriptions.interval,
  unitPrice: subscriptions.unitPrice,
  quantity: subscriptions.quantity,
  trialEndsAt: subscriptions.trialEndsAt,
  periodsPaid: subscriptions.periodsPaid,
  paidThrough: subscriptions.paidThrough,
  cancelAtPeriodEnd: subscriptions.cancelAtPeriodEnd,
  endedAt: subscriptions.endedAt,
  endReason: subscriptions.endReason,
};

/** Subscriptions as their seller sees them in a webhook (no buyer), by id. */
export async function subscriptionsForEvent(db: Db, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return db
    .select(subscriptionColumns)
    .from(subscriptions)
    .innerJoin(orderItems, eq(orderItems.id, subscriptions.orderItemId))
    .where(inArray(subscriptions.id, [...ids]));
}

/** The subscriptions an order started. */
export async function subscriptionIdsOfOrder(db: Db, orderId: string): Promise<string[]> {
  const rows = await db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(eq(subscriptions.orderId, orderId));
  return rows.map((row) => row.id);
}

/**
 * Revoked licences with their seller: these ids, or those of an item revoked at `at` (the revocation
 * just made in this transaction).
 */
export async function revokedLicenses(
  db: Db,
  which: { ids: readonly string[] } | { orderItemId: string; at: Date },
) {
  if ("ids" in which && which.ids.length === 0) return [];
  return db
    .select({
      id: licenses.id,
      sellerId: orderItems.sellerId,
      orderId: licenses.orderId,
      orderItemId: licenses.orderItemId,
      productId: licenses.productId,
      productName: licenses.productName,
      revokedAt: licenses.revokedAt,
    })
    .from(licenses)
    .innerJoin(orderItems, eq(orderItems.id, licenses.orderItemId))
    .where(
      and(
        eq(licenses.status, "revoked"),
        "ids" in which
          ? inArray(licenses.id, [...which.ids])
          : and(eq(licenses.orderItemId, which.orderItemId), eq(licenses.revokedAt, which.at)),
      ),
    );
}

/** A licence with its seller, whatever its status. */
export async function licenseWithSeller(db: Db, id: string) {
  const [row] = await db
    .select({
      id: licenses.id,
      sellerId: orderItems.sellerId,
      orderId: licenses.orderId,
      orderItemId: licenses.orderItemId,
      productId: licenses.productId,
      productName: licenses.productName,
      status: licenses.status,
    })
    .from(licenses)
    .innerJoin(orderItems, eq(orderItems.id, licenses.orderItemId))
    .where(eq(licenses.id, id));
  return row ?? null;
}

/** An order item's product, as bought. */
export async function itemProduct(db: Db, orderItemId: string) {
  const [row] = await db
    .select({ productId: orderItems.productId, productName: orderItems.productName })
    .from(orderItems)
    .where(eq(orderItems.id, orderItemId));
  return row;
}
