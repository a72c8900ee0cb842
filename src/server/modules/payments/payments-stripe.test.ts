import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { PaymentMethodList } from "#domain/payment-methods";
import type { Subscription } from "#domain/subscription-schemas";
import { products } from "#server/db/schema/catalog";
import { paymentMethodSetups, paymentMethods } from "#server/db/schema/payment-methods";
import { paymentEvents, payments } from "#server/db/schema/payments";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import type { AdjustableClock } from "#server/lib/clock";
import { paymentDepsOf } from "#server/modules/payments/service";
import { runRenewals } from "#server/modules/renewals/service";
import { createStripeProvider } from "#server/payments/stripe";
import { createTestApp } from "#server/test/app";
import { createVerifiedAccount, signedInClient } from "#server/test/client";
import { placeOrder } from "#server/test/orders";
import { getOrder } from "#server/test/payments";
import { type SignedWebhook, type StripeStandIn, startStripeStandIn } from "#server/test/stripe-stand-in";

/**
 * Stripe's webhook through the real SDK against the local stand-in for api.stripe.com: what the
 * marketplace does with signed events it cannot act on as they are.
 */

const keys = { secretKey: "sk_test_payments", webhookSecret: "whsec_payments" };
const connectSecret = "whsec_payments_connect";
let standIn: StripeStandIn;
let t: Awaited<ReturnType<typeof createTestApp>>;
let productId = "";

beforeAll(async () => {
  standIn = await startStripeStandIn(keys);
  t = await createTestApp({
    seed: true,
    env: {
      STRIPE_SECRET_KEY: keys.secretKey,
      STRIPE_WEBHOOK_SECRET: keys.webhookSecret,
      STRIPE_CONNECT_WEBHOOK_SECRET: connectSecret,
      STRIPE_API_BASE: standIn.url,
    },
    paymentFactories: { stripe: createStripeProvider },
  });
  const [made] = await t.db
    .insert(products)
    .values({ name: "Currency Seat", category: "software", price: "19.99", vendor: "Acme" })
    .returning({ id: products.id });
  productId = made?.id ?? "";
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

async function placeWithStripe() {
  const buyer = await signedInClient(t.app, "buyer@stackbay.test", DEMO_PASSWORD);
  const { orderId } = await placeOrder(buyer, { items: [{ productId, price: 19.99 }] });
  const [attempt] = await t.db.select().from(payments).where(eq(payments.orderId, orderId));
  return { buyer, orderId, attempt: attempt! };
}

describe("the Stripe webhook", () => {
  test("a paid session in another currency is answered 200, recorded on the attempt and not delivered", async () => {
    const { buyer, orderId, attempt } = await placeWithStripe();
    const session = standIn.markPaid(attempt.providerRef ?? "");
    // The same number of minor units, in euros: not the dollars the order costs.
    const euros = standIn.signedEvent("checkout.session.completed", { ...session, currency: "eur" });
    const eventId = JSON.parse(euros.rawBody.toString("utf8")).id as string;

    const answer = await webhook(euros);
    expect(answer.statusCode).toBe(200);
    expect((await getOrder(buyer, orderId)).paymentStatus).toBe("pending");
    const [marked] = await t.db.select().from(payments).where(eq(payments.id, attempt.id));
    expect(marked).toMatchObject({
      state: "pending",
      reason: `paid ${session.amount_total} eur minor units, expected ${attempt.amountCents} usd`,
    });
    const [stored] = await t.db
      .select()
      .from(paymentEvents)
      .where(and(eq(paymentEvents.provider, "stripe"), eq(paymentEvents.eventId, eventId)));
    expect(stored).toMatchObject({ kind: "payment", orderId });

    // Stripe's own retry of that delivery is a duplicate, and the dollars, when they come, deliver.
    expect((await webhook(euros)).statusCode).toBe(200);
    expect((await webhook(standIn.signedEvent("checkout.session.completed", session))).statusCode).toBe(200);
    expect((await getOrder(buyer, orderId)).paymentStatus).toBe("mock_confirmed");
  });

  test("a payment event signed with the Connect endpoint's secret is refused and moves nothing", async () => {
    const { buyer, orderId, attempt } = await placeWithStripe();
    const session = standIn.markPaid(attempt.providerRef ?? "");
    const forged = standIn.signedEvent("checkout.session.completed", session, { secret: connectSecret });
    const answer = await webhook(forged);
    expect(answer.statusCode).toBe(400);
    expect(answer.json().code).toBe("INVALID_SIGNATURE");
    expect((await getOrder(buyer, orderId)).paymentStatus).toBe("pending");
  });

  test("a delivery signed ten minutes in the future is refused", async () => {
    const { buyer, orderId, attempt } = await placeWithStripe();
    const session = standIn.markPaid(attempt.providerRef ?? "");
    const ahead = standIn.signedEvent("checkout.session.completed", session, {
      timestamp: Math.floor(Date.now() / 1000) + 10 * 60,
    });
    expect((await webhook(ahead)).statusCode).toBe(400);
    expect((await getOrder(buyer, orderId)).paymentStatus).toBe("pending");
  });
});

describe("a card saved through Stripe, charged off-session for a renewal", () => {
  test("setup mode's webhook saves the card; the renewal is charged with the SDK once, keyed by its order and attempt", async () => {
    const clock = t.app.clock as AdjustableClock;
    const email = "stripe.saver@stackbay.test";
    const { password } = await createVerifiedAccount(t.app, t.dataDir, { email, firstName: "Stripe" });
    const buyer = await signedInClient(t.app, email, password);
    const [monthly] = await t.db
      .insert(products)
      .values({
        name: "Stripe Monthly",
        category: "software",
        price: "12",
        pricingUnit: "month",
        vendor: "Acme",
      })
      .returning({ id: products.id });

    // Saving the card: Stripe's page in setup mode, for a customer made for this buyer.
    const started = await buyer.post("/api/payment-methods/setups", { kind: "card" });
    expect(started.statusCode, started.body).toBe(200);
    const [setup] = await t.db
      .select()
      .from(paymentMethodSetups)
      .where(eq(paymentMethodSetups.provider, "stripe"));
    const sessionId = setup?.providerRef ?? "";
    expect(standIn.session(sessionId)).toMatchObject({ mode: "setup" });
    const saved = standIn.markSaved(sessionId, "pm_card_visa");
    expect((await webhook(standIn.signedEvent("checkout.session.completed", saved))).statusCode).toBe(200);
    const list = (await buyer.get("/api/payment-methods")).json() as PaymentMethodList;
    expect(list.methods).toEqual([expect.objectContaining({ label: "Visa •••• 4242", isDefault: true })]);
    const [method] = await t.db
      .select()
      .from(paymentMethods)
      .where(eq(paymentMethods.userId, setup?.userId ?? ""));
    expect(method).toMatchObject({
      provider: "stripe",
      fingerprint: "fp_visa4242",
      customerRef: saved.customer,
    });

    // A monthly subscription paid on Stripe's payment page, then its renewal charged without the buyer.
    const { orderId } = await placeOrder(buyer, {
      email,
      items: [{ productId: monthly?.id ?? "", price: 12 }],
    });
    const [attempt] = await t.db.select().from(payments).where(eq(payments.orderId, orderId));
    expect(
      (
        await webhook(
          standIn.signedEvent("checkout.session.completed", standIn.markPaid(attempt?.providerRef ?? "")),
        )
      ).statusCode,
    ).toBe(200);
    const [sub] = (await buyer.get("/api/subscriptions")).json().items as Subscription[];
    const dueAt = new Date(sub?.paidThrough ?? 0);
    clock.advance(dueAt.getTime() - clock.now().getTime() + 60_000);
    try {
      await runRenewals(paymentDepsOf(t.app), clock.now());
      const [renewed] = (await buyer.get("/api/subscriptions")).json().items as Subscription[];
      expect(renewed).toMatchObject({ status: "active", due: null });
      const intents = standIn.paymentIntents();
      expect(intents).toHaveLength(1);
      const [intent] = intents;
      expect(intent).toMatchObject({
        status: "succeeded",
        customer: saved.customer,
        amount: attempt?.amountCents,
      });
      expect(standIn.paymentIntentParams(intent?.id ?? "")).toMatchObject({
        off_session: "true",
        confirm: "true",
      });
      const [charge] = await t.db
        .select()
        .from(payments)
        .where(and(eq(payments.providerRef, intent?.id ?? ""), eq(payments.provider, "stripe")));
      expect(charge).toMatchObject({ state: "paid", savedMethodId: method?.id });
    } finally {
      clock.reset();
    }
  });
});

describe("a removed card leaves Stripe too", () => {
  /** A new buyer with a card saved through Stripe's setup page: their client and the card's row. */
  async function buyerWithCard(email: string) {
    const { password } = await createVerifiedAccount(t.app, t.dataDir, { email, firstName: "Leaving" });
    const buyer = await signedInClient(t.app, email, password);
    const started = await buyer.post("/api/payment-methods/setups", { kind: "card" });
    expect(started.statusCode, started.body).toBe(200);
    const user = (await buyer.get("/api/me")).json().user as { id: string };
    const [setup] = await t.db
      .select()
      .from(paymentMethodSetups)
      .where(and(eq(paymentMethodSetups.provider, "stripe"), eq(paymentMethodSetups.userId, user.id)));
    const saved = standIn.markSaved(setup?.providerRef ?? "", "pm_card_mastercard");
    expect((await webhook(standIn.signedEvent("checkout.session.completed", saved))).statusCode).toBe(200);
    const [method] = await t.db.select().from(paymentMethods).where(eq(paymentMethods.userId, user.id));
    if (!method?.methodRef) throw new Error("the card was not saved");
    expect(standIn.paymentMethod(method.methodRef).customer).toBe(saved.customer);
    return { buyer, password, method };
  }

  test("removing it on the wallet detaches it from the buyer's Stripe customer", async () => {
    const { buyer, method } = await buyerWithCard("stripe.remover@stackbay.test");
    const removed = await buyer.request("DELETE", `/api/payment-methods/${method.id}`);
    expect(removed.statusCode, removed.body).toBe(200);
    // The job queued with the removal has run by the time the answer comes (the test app waits for it).
    expect(standIn.paymentMethod(method.methodRef ?? "").customer).toBeNull();
  });

  test("deleting the account detaches every card it had saved", async () => {
    const { buyer, password, method } = await buyerWithCard("stripe.deleter@stackbay.test");
    const deleted = await buyer.request("DELETE", "/api/me", { password });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(standIn.paymentMethod(method.methodRef ?? "").customer).toBeNull();
  });
});
