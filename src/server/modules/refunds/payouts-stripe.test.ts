import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { chargeCents } from "#domain/money";
import { refundPayouts } from "#server/db/schema/after-sale";
import { products } from "#server/db/schema/catalog";
import { payments } from "#server/db/schema/payments";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import { createStripeProvider } from "#server/payments/stripe";
import { createTestApp } from "#server/test/app";
import { signedInClient } from "#server/test/client";
import { placeOrder } from "#server/test/orders";
import { readOutbox } from "#server/test/outbox";
import { getOrder } from "#server/test/payments";
import { type SignedWebhook, type StripeStandIn, startStripeStandIn } from "#server/test/stripe-stand-in";

/**
 * A card refund reaches Stripe (the real SDK, against the local stand-in for api.stripe.com) for the
 * item's amount with the refund id as idempotency key, and Stripe's signed `refund.updated` completes it.
 */

const keys = { secretKey: "sk_test_refunds", webhookSecret: "whsec_refunds" };
let standIn: StripeStandIn;
let t: Awaited<ReturnType<typeof createTestApp>>;

beforeAll(async () => {
  standIn = await startStripeStandIn(keys);
  t = await createTestApp({
    seed: true,
    env: {
      STRIPE_SECRET_KEY: keys.secretKey,
      STRIPE_WEBHOOK_SECRET: keys.webhookSecret,
      STRIPE_API_BASE: standIn.url,
    },
    paymentFactories: { stripe: createStripeProvider },
  });
});
afterAll(async () => {
  await t?.close();
  await standIn?.close();
});

const webhook = (signed: SignedWebhook) =>
  t.app.inject({
    method: "POST",
    url: "/api/payments/webhooks/stripe",
    headers: { "content-type": "application/json", ...signed.headers },
    payload: signed.rawBody,
  });

describe("refunds through Stripe", () => {
  test("the refund reaches Stripe with the amount and idempotency key; a signed refund.updated completes it", async () => {
    const buyer = await signedInClient(t.app, "buyer@stackbay.test", DEMO_PASSWORD);
    const seller = await signedInClient(t.app, "seller@stackbay.test", DEMO_PASSWORD);
    const [product] = await t.db
      .select({ id: products.id, price: products.price })
      .from(products)
      .where(
        and(
          eq(products.category, "hardware"),
          eq(products.isActive, true),
          sql`${products.sellerId} = (select id from users where email = 'seller@stackbay.test')`,
        ),
      )
      .limit(1);
    const { orderId } = await placeOrder(buyer, {
      country: "Portugal",
      items: [{ productId: product?.id ?? "", price: product?.price ?? 0 }],
    });
    const [attempt] = await t.db.select().from(payments).where(eq(payments.orderId, orderId));
    expect(attempt?.provider).toBe("stripe");
    // The buyer pays on Stripe's page; Stripe's signed event confirms the order.
    const session = standIn.markPaid(attempt?.providerRef ?? "");
    expect((await webhook(standIn.signedEvent("checkout.session.completed", session))).statusCode).toBe(200);
    const order = await getOrder(buyer, orderId);
    expect(order.paymentStatus).toBe("mock_confirmed");

    const asked = await buyer.post(`/api/orders/${orderId}/items/${order.items[0]?.id}/refund`, {
      reason: "It arrived broken, the box was crushed.",
    });
    const refundId = asked.json().refund.id as string;
    // Stripe answers "pending" (as for some cards and methods) until it settles the refund.
    standIn.holdNextRefund();
    expect((await seller.post(`/api/refunds/${refundId}/decision`, { decision: "approve" })).statusCode).toBe(
      200,
    );

    const amountCents = chargeCents(String(order.totalAmount));
    const [refund] = standIn.refunds();
    expect(refund).toMatchObject({
      amount: amountCents,
      payment_intent: session.payment_intent,
      metadata: { refundId, orderId },
      status: "pending",
    });
    expect(standIn.requests.filter((r) => r.path === "/v1/refunds")).toEqual([
      { method: "POST", path: "/v1/refunds", idempotencyKey: `refund:${refundId}`, replayed: false },
    ]);
    const [pending] = await t.db.select().from(refundPayouts).where(eq(refundPayouts.refundId, refundId));
    expect(pending).toMatchObject({ state: "pending", provider: "stripe", providerRefundRef: refund?.id });
    const sent = async () =>
      (await readOutbox(t.dataDir)).filter(
        (m) => m.to === "buyer@stackbay.test" && /has been sent$/.test(m.subject),
      );
    expect(await sent()).toHaveLength(0);
    expect((await getOrder(buyer, orderId)).items[0]?.refund?.payout?.state).toBe("pending");

    const settled = standIn.settleRefund(refund?.id ?? "", "succeeded");
    const event = standIn.signedEvent("refund.updated", settled);
    expect((await webhook(event)).statusCode).toBe(200);
    // Stripe delivers it again, and its earlier refund.created arrives late: nothing changes.
    expect((await webhook(event)).statusCode).toBe(200);
    expect(
      (await webhook(standIn.signedEvent("refund.created", { ...settled, status: "pending" }))).statusCode,
    ).toBe(200);

    const [paid] = await t.db.select().from(refundPayouts).where(eq(refundPayouts.refundId, refundId));
    expect(paid).toMatchObject({ state: "succeeded", attempts: 1 });
    expect(await sent()).toHaveLength(1);
    expect((await getOrder(buyer, orderId)).items[0]?.refund?.payout).toMatchObject({
      state: "succeeded",
      destination: "card",
      amountCents,
    });
  });
});
