import { randomBytes } from "node:crypto";
import { and, desc, eq } from "drizzle-orm";
import { DAY_MS } from "#domain/dates";
import { WEBHOOK_RETRY_DAYS } from "#domain/seller-webhooks";

const HOUR_MS = 3_600_000;

import type { Database } from "#server/db/client";
import { products } from "#server/db/schema/catalog";
import { orderItems, orders } from "#server/db/schema/orders";
import { productQuestions } from "#server/db/schema/questions";
import {
  sellerWebhookDeliveries,
  sellerWebhookEndpoints,
  sellerWebhookEvents,
} from "#server/db/schema/seller-api";
import { seal } from "#server/lib/sealed";

/**
 * Where the demo seller's endpoint points: a loopback port nothing listens on. The demo starts no
 * receiver, so its deliveries really are attempted by the job queue once the server runs, fail with the
 * connection's own error and are retried; the log shows exactly that, never an outcome made up here.
 */
export const DEMO_WEBHOOK_URL = "http://127.0.0.1:9/stackbay-webhooks";

/**
 * The demo seller's webhook endpoint with a few events waiting to be delivered (a paid order and a
 * question of theirs, from the demo data). Needs the secret signing secrets are sealed with (AUTH_SECRET);
 * skipped without it. Idempotent: a seller with an endpoint gets none.
 */
export async function seedDemoWebhook(
  db: Database,
  { now, sellerId, secret }: { now: Date; sellerId: string; secret: string | undefined },
) {
  if (!secret) return;
  const [existing] = await db
    .select({ id: sellerWebhookEndpoints.id })
    .from(sellerWebhookEndpoints)
    .where(eq(sellerWebhookEndpoints.sellerId, sellerId))
    .limit(1);
  if (existing) return;
  const [endpoint] = await db
    .insert(sellerWebhookEndpoints)
    .values({
      sellerId,
      url: DEMO_WEBHOOK_URL,
      description: "Demo receiver: nothing listens here, so deliveries fail and are retried",
      events: ["order.paid", "subscription.started", "refund.requested", "question.asked"],
      secretSealed: seal(secret, "seller-webhook-secret", `whsec_${randomBytes(32).toString("base64url")}`),
      createdAt: new Date(now.getTime() - 2 * DAY_MS),
    })
    .returning({ id: sellerWebhookEndpoints.id });
  if (!endpoint) return;
  const [line] = await db
    .select({
      orderId: orderItems.orderId,
      orderItemId: orderItems.id,
      productId: orderItems.productId,
      productName: orderItems.productName,
      quantity: orderItems.quantity,
      price: orderItems.price,
    })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .where(and(eq(orderItems.sellerId, sellerId), eq(orders.isPaid, true)))
    .orderBy(desc(orders.createdAt))
    .limit(1);
  const [question] = await db
    .select({
      id: productQuestions.id,
      productId: products.id,
      productName: products.name,
      text: productQuestions.text,
    })
    .from(productQuestions)
    .innerJoin(products, eq(products.id, productQuestions.productId))
    .where(eq(products.sellerId, sellerId))
    .limit(1);
  const events = [
    ...(line
      ? [
          {
            type: "order.paid",
            hoursAgo: 5,
            data: {
              orderId: line.orderId,
              paidAt: new Date(now.getTime() - 5 * HOUR_MS).toISOString(),
              currency: "USD",
              items: [
                {
                  orderItemId: line.orderItemId,
                  productId: line.productId,
                  productName: line.productName,
                  quantity: line.quantity,
                  unitPrice: line.price,
                },
              ],
            },
          },
        ]
      : []),
    ...(question
      ? [
          {
            type: "question.asked",
            hoursAgo: 2,
            data: {
              questionId: question.id,
              productId: question.productId,
              productName: question.productName,
              text: question.text,
              askedAt: new Date(now.getTime() - 2 * HOUR_MS).toISOString(),
            },
          },
        ]
      : []),
    {
      type: "ping",
      hoursAgo: 1,
      data: { message: "A test event sent from Stackbay.", endpointId: endpoint.id },
    },
  ];
  for (const event of events) {
    const at = new Date(now.getTime() - event.hoursAgo * HOUR_MS);
    const id = `evt_${randomBytes(16).toString("hex")}`;
    await db
      .insert(sellerWebhookEvents)
      .values({ id, sellerId, type: event.type, data: event.data, createdAt: at });
    await db.insert(sellerWebhookDeliveries).values({
      eventId: id,
      endpointId: endpoint.id,
      status: "pending",
      // Due now: the dispatch job attempts them as soon as the server runs.
      nextAttemptAt: now,
      retryUntil: new Date(at.getTime() + WEBHOOK_RETRY_DAYS * DAY_MS),
      createdAt: at,
    });
  }
}
