import { randomBytes } from "node:crypto";
import { DAY_MS } from "#domain/dates";
import { type SellerWebhookEventType, WEBHOOK_RETRY_DAYS } from "#domain/seller-webhooks";
import type { Db } from "#server/db/client";
import {
  insertDeliveries,
  insertEvent,
  subscribedEndpoints,
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
 * The outbox of webhooks to sellers (decision 0029): writes the event and one pending delivery per
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
