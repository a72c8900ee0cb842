import { randomBytes } from "node:crypto";
import { DAY_MS } from "#domain/dates";
import { type SellerWebhookEventType, WEBHOOK_RETRY_DAYS } from "#domain/seller-webhooks";
import type { Db } from "#server/db/client";
import {
  insertDeliveries,
  insertEvent,
  itemProduct,
  licenseWithSeller,
  revokedLicenses,
  sellerLinesOf,
  subscribedEndpoints,
  subscriptionIdsOfOrder,
  subscriptionsForEvent,
  type WebhookDeliveryRow,
} from "#server/modules/seller-webhooks/repository";

/** What happened, for one seller: the event's type and the data their endpoints receive. */
export type SellerEventInput = {
  sellerId: string;
  type: SellerWebhookEventType;
  /** Only what the seller may see on their dashboard: their own items, never another seller's. */
  data: Record<string, unknown>;
  /** When it happened: the cause's time (the app's clock); now when left out. */
  at?: Date;
};

/** A new event id: `evt_` and 16 random bytes in hex. */
export function newEventId(): string {
  return `evt_${randomBytes(16).toString("hex")}`;
}

/**
 * The outbox of webhooks to sellers (decision 0030): writes the event and one pending delivery per
 * endpoint of the seller that is on and chose this type, in `tx`, the transaction of what caused it. If
 * that transaction rolls back, neither exists; once it commits, the dispatch job (every minute) takes
 * the deliveries. Writes nothing when no endpoint of the seller wants the event. Answers the deliveries.
 */
export async function emitSellerEvent(tx: Db, event: SellerEventInput): Promise<WebhookDeliveryRow[]> {
  const endpoints = await subscribedEndpoints(tx, event.sellerId, event.type);
  if (endpoints.length === 0) return [];
  return writeEvent(tx, event, endpoints);
}

/** Writes an event and its deliveries to these endpoints (the test event's one endpoint, or the subscribed ones). */
export async function writeEvent(
  tx: Db,
  event: SellerEventInput,
  endpoints: readonly { id: string }[],
): Promise<WebhookDeliveryRow[]> {
  const id = newEventId();
  const at = event.at ?? new Date();
  await insertEvent(tx, {
    id,
    sellerId: event.sellerId,
    type: event.type,
    data: event.data,
    createdAt: at,
  });
  return insertDeliveries(
    tx,
    endpoints.map((endpoint) => ({
      eventId: id,
      endpointId: endpoint.id,
      status: "pending" as const,
      nextAttemptAt: at,
      retryUntil: new Date(at.getTime() + WEBHOOK_RETRY_DAYS * DAY_MS),
      createdAt: at,
    })),
  );
}

const iso = (date: Date | null) => date?.toISOString() ?? null;

/**
 * `order.paid`, in a paid order's delivery: one event per seller with items in it, carrying only that
 * seller's lines (what their Orders received view shows of them), never the buyer's contact details.
 */
export async function orderPaidEvents(tx: Db, orderId: string, at: Date): Promise<void> {
  const bySeller = new Map<string, Awaited<ReturnType<typeof sellerLinesOf>>>();
  for (const line of await sellerLinesOf(tx, orderId))
    if (line.sellerId) bySeller.set(line.sellerId, [...(bySeller.get(line.sellerId) ?? []), line]);
  for (const [sellerId, lines] of bySeller)
    await emitSellerEvent(tx, {
      sellerId,
      type: "order.paid",
      at,
      data: {
        orderId,
        paidAt: at.toISOString(),
        currency: "USD",
        items: lines.map((line) => ({
          orderItemId: line.orderItemId,
          productId: line.productId,
          productName: line.productName,
          quantity: line.quantity,
          unitPrice: line.price,
        })),
      },
    });
}

type SubscriptionEvent = Extract<SellerWebhookEventType, `subscription.${string}`>;

/** A subscription event for each of these subscriptions' sellers: the subscription's terms and state, no buyer. */
export async function subscriptionEvents(
  tx: Db,
  ids: readonly string[],
  type: SubscriptionEvent,
  at: Date,
): Promise<void> {
  for (const row of await subscriptionsForEvent(tx, ids)) {
    if (!row.sellerId) continue;
    await emitSellerEvent(tx, {
      sellerId: row.sellerId,
      type,
      at,
      data: {
        subscriptionId: row.id,
        productId: row.productId,
        productName: row.productName,
        orderId: row.orderId,
        orderItemId: row.orderItemId,
        planId: row.planId,
        interval: row.interval,
        unitPrice: row.unitPrice,
        quantity: row.quantity,
        trialEndsAt: iso(row.trialEndsAt),
        periodsPaid: row.periodsPaid,
        paidThrough: iso(row.paidThrough),
        cancelAtPeriodEnd: row.cancelAtPeriodEnd,
        endedAt: iso(row.endedAt),
        endReason: row.endReason,
      },
    });
  }
}

/** `subscription.started` for each subscription a paid order started. */
export async function subscriptionsStartedEvents(tx: Db, orderId: string, at: Date): Promise<void> {
  await subscriptionEvents(tx, await subscriptionIdsOfOrder(tx, orderId), "subscription.started", at);
}

/**
 * `license.revoked` for each licence just revoked in this transaction: these ids, or an item's revoked
 * at `at`.
 */
export async function licensesRevokedEvents(
  tx: Db,
  which: Parameters<typeof revokedLicenses>[1],
  at: Date,
  reason: "refunded" | "subscription_ended" | "account_deleted",
): Promise<void> {
  for (const license of await revokedLicenses(tx, which)) {
    if (!license.sellerId) continue;
    await emitSellerEvent(tx, {
      sellerId: license.sellerId,
      type: "license.revoked",
      at,
      data: {
        licenseId: license.id,
        orderId: license.orderId,
        orderItemId: license.orderItemId,
        productId: license.productId,
        productName: license.productName,
        revokedAt: iso(license.revokedAt),
        reason,
      },
    });
  }
}

/**
 * `license.activated` (a machine took a seat; `activation` names it) or `license.suspended` (its seller
 * suspended it) for one licence, to its seller.
 */
export async function licenseEvent(
  tx: Db,
  licenseId: string,
  type: "license.activated" | "license.suspended",
  at: Date,
  activation?: { machine: string; label: string; seatsUsed: number; seats: number },
): Promise<void> {
  const license = await licenseWithSeller(tx, licenseId);
  if (!license?.sellerId) return;
  await emitSellerEvent(tx, {
    sellerId: license.sellerId,
    type,
    at,
    data: {
      licenseId: license.id,
      orderId: license.orderId,
      orderItemId: license.orderItemId,
      productId: license.productId,
      productName: license.productName,
      status: license.status,
      ...(activation ?? {}),
    },
  });
}

/** A refund request of one of the seller's items, as their Refunds view shows it (the buyer's reason, no contact). */
type RefundFacts = {
  id: string;
  orderId: string;
  orderItemId: string;
  sellerId: string | null;
  reason: string;
  status: string;
  createdAt: Date;
};

/** `refund.requested` or `refund.approved` for the item's seller (none for an item Stackbay sells itself). */
export async function refundEvent(
  tx: Db,
  type: "refund.requested" | "refund.approved",
  refund: RefundFacts,
  at: Date,
): Promise<void> {
  if (!refund.sellerId) return;
  const product = await itemProduct(tx, refund.orderItemId);
  await emitSellerEvent(tx, {
    sellerId: refund.sellerId,
    type,
    at,
    data: {
      refundId: refund.id,
      orderId: refund.orderId,
      orderItemId: refund.orderItemId,
      productId: product?.productId ?? null,
      productName: product?.productName ?? null,
      reason: refund.reason,
      status: type === "refund.approved" ? "approved" : refund.status,
      requestedAt: refund.createdAt.toISOString(),
    },
  });
}
