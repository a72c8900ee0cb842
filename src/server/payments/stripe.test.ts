import { randomUUID } from "node:crypto";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { freePort } from "#server/test/ports";
import { type StandInTestCard, type StripeStandIn, startStripeStandIn } from "#server/test/stripe-stand-in";
import {
  InvalidWebhookSignature,
  type OffSessionCharge,
  type PaymentProvider,
  type PaymentStart,
  type SavedMethodDetails,
  type SetupStart,
} from "./provider";
import { createStripeProvider, STRIPE_HARD_DECLINES } from "./stripe";

/**
 * The Stripe provider through the real SDK against a local stand-in for api.stripe.com: what it sends
 * (amounts, metadata, URLs, idempotency keys), how it reads sessions and refunds back, and which
 * webhook deliveries it believes; for saved cards, the setup session, the off-session charges with
 * Stripe's test cards (paid, soft and hard declines) and their PaymentIntents' events.
 */

const keys = { secretKey: "sk_test_stand_in", webhookSecret: "whsec_stand_in" };
let standIn: StripeStandIn;
let stripe: PaymentProvider;

beforeAll(async () => {
  standIn = await startStripeStandIn(keys);
  stripe = createStripeProvider({ ...keys, apiBase: standIn.url });
});
afterAll(() => standIn?.close());

function payment(overrides: Partial<PaymentStart> = {}): PaymentStart {
  const orderId = randomUUID();
  return {
    orderId,
    idempotencyKey: `${orderId}:1`,
    amountCents: 12_345,
    description: `Stackbay order ${orderId.slice(0, 8).toUpperCase()}`,
    email: "buyer@example.com",
    returnUrl: `http://localhost:5173/orders/${orderId}/return`,
    cancelUrl: `http://localhost:5173/orders/${orderId}/cancelled`,
    ...overrides,
  };
}

async function paidSession(amountCents = 12_345) {
  const start = payment({ amountCents });
  const { providerRef } = await stripe.start(start);
  return { start, providerRef, session: standIn.markPaid(providerRef) };
}

describe("start", () => {
  test("opens a hosted payment session for the amount in US cents, the order and our return URLs", async () => {
    const start = payment();
    const started = await stripe.start(start);

    const session = standIn.session(started.providerRef);
    expect(started).toEqual({ providerRef: session.id, redirectUrl: session.url });
    expect(session).toMatchObject({
      mode: "payment",
      status: "open",
      amount_total: 12_345,
      currency: "usd",
      customer_email: "buyer@example.com",
      client_reference_id: start.orderId,
      metadata: { orderId: start.orderId },
      success_url: `${start.returnUrl}?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: start.cancelUrl,
    });
    const params = standIn.sessionParams(session.id);
    expect(params.line_items).toEqual({
      "0": {
        quantity: "1",
        price_data: { currency: "usd", unit_amount: "12345", product_data: { name: start.description } },
      },
    });
    // The Dashboard's automatic payment methods (card, Apple Pay, Google Pay) apply only without this.
    expect(params).not.toHaveProperty("payment_method_types");
    expect(standIn.requests.at(-1)).toMatchObject({
      method: "POST",
      path: "/v1/checkout/sessions",
      idempotencyKey: start.idempotencyKey,
    });
  });

  test("keeps a return URL's own query and adds the session id to it", async () => {
    const start = payment({ returnUrl: "http://localhost:5173/checkout/return?order=abc" });
    const { providerRef } = await stripe.start(start);
    expect(standIn.session(providerRef).success_url).toBe(
      "http://localhost:5173/checkout/return?order=abc&session_id={CHECKOUT_SESSION_ID}",
    );
  });

  test("a repeated start with the same idempotency key answers the same session; a new attempt opens another", async () => {
    const start = payment();
    const first = await stripe.start(start);
    const again = await stripe.start(start);
    expect(again).toEqual(first);
    expect(standIn.requests.at(-1)).toMatchObject({ idempotencyKey: start.idempotencyKey, replayed: true });
    expect(standIn.sessions().filter((s) => s.client_reference_id === start.orderId)).toHaveLength(1);

    const retry = await stripe.start({ ...start, idempotencyKey: `${start.orderId}:2` });
    expect(retry.providerRef).not.toBe(first.providerRef);
    expect(standIn.sessions().filter((s) => s.client_reference_id === start.orderId)).toHaveLength(2);
  });
});

describe("lookup and complete", () => {
  test("an open session is pending, a paid one paid with Stripe's amount, an expired one expired", async () => {
    const { providerRef } = await stripe.start(payment({ amountCents: 999 }));
    expect(await stripe.lookup(providerRef)).toEqual({ state: "pending" });
    expect(await stripe.complete(providerRef, { session_id: providerRef })).toEqual({ state: "pending" });

    standIn.markPaid(providerRef);
    expect(await stripe.lookup(providerRef)).toEqual({ state: "paid", amountCents: 999, currency: "usd" });
    expect(await stripe.complete(providerRef, { session_id: providerRef })).toEqual({
      state: "paid",
      amountCents: 999,
      currency: "usd",
    });

    const other = await stripe.start(payment());
    standIn.markExpired(other.providerRef);
    expect(await stripe.lookup(other.providerRef)).toEqual({ state: "expired" });
  });

  test("an unknown session is an error, not a state", async () => {
    await expect(stripe.lookup("cs_test_nobody")).rejects.toThrow("No such checkout.session");
  });
});

describe("parseWebhook", () => {
  test("a completed, paid session is the order's payment", async () => {
    const { start, session } = await paidSession(5_000);
    const delivery = standIn.signedEvent("checkout.session.completed", session);
    const event = await stripe.parseWebhook(delivery.rawBody, delivery.headers);
    expect(event).toEqual({
      eventId: expect.stringMatching(/^evt_/),
      kind: "payment",
      providerRef: session.id,
      orderId: start.orderId,
      result: { state: "paid", amountCents: 5_000, currency: "usd" },
    });
  });

  test("a paid session in another currency is answered with that currency, not thrown", async () => {
    // Thrown, the webhook answered 500 and Stripe retried a delivery that can never change for days;
    // the payment compares the currency and refuses to deliver (modules/payments).
    const { session } = await paidSession(5_000);
    const euros = standIn.signedEvent("checkout.session.completed", { ...session, currency: "eur" });
    expect(await stripe.parseWebhook(euros.rawBody, euros.headers)).toMatchObject({
      kind: "payment",
      providerRef: session.id,
      result: { state: "paid", amountCents: 5_000, currency: "eur" },
    });
  });

  test("a completed session still unpaid (a delayed method) is pending until its async outcome", async () => {
    const start = payment();
    const { providerRef } = await stripe.start(start);
    const session = { ...standIn.session(providerRef), status: "complete", metadata: {} };

    const completed = standIn.signedEvent("checkout.session.completed", session);
    expect(await stripe.parseWebhook(completed.rawBody, completed.headers)).toMatchObject({
      kind: "payment",
      providerRef,
      // Without our metadata the order is still known from client_reference_id.
      orderId: start.orderId,
      result: { state: "pending" },
    });

    const succeeded = standIn.signedEvent("checkout.session.async_payment_succeeded", {
      ...session,
      payment_status: "paid",
    });
    expect(await stripe.parseWebhook(succeeded.rawBody, succeeded.headers)).toMatchObject({
      kind: "payment",
      result: { state: "paid", amountCents: 12_345, currency: "usd" },
    });

    const failed = standIn.signedEvent("checkout.session.async_payment_failed", session);
    expect(await stripe.parseWebhook(failed.rawBody, failed.headers)).toMatchObject({
      kind: "payment",
      providerRef,
      result: { state: "failed", reason: "Stripe could not collect the payment after checkout" },
    });
  });

  test("an expired session is expired", async () => {
    const start = payment();
    const { providerRef } = await stripe.start(start);
    const delivery = standIn.signedEvent("checkout.session.expired", standIn.markExpired(providerRef));
    expect(await stripe.parseWebhook(delivery.rawBody, delivery.headers)).toMatchObject({
      kind: "payment",
      providerRef,
      orderId: start.orderId,
      result: { state: "expired" },
    });
  });

  test("refund events carry our refund id and Stripe's outcome", async () => {
    const { start, providerRef } = await paidSession();
    const refundId = randomUUID();
    const made = await stripe.refund({ refundId, orderId: start.orderId, providerRef, amountCents: 100 });
    const refund = standIn.refunds().find((r) => r.id === made.providerRefundRef)!;

    const updated = standIn.signedEvent("refund.updated", refund);
    expect(await stripe.parseWebhook(updated.rawBody, updated.headers)).toEqual({
      eventId: expect.stringMatching(/^evt_/),
      kind: "refund",
      providerRefundRef: refund.id,
      refundId,
      result: { state: "succeeded" },
    });

    const created = standIn.signedEvent("refund.created", { ...refund, status: "pending" });
    expect(await stripe.parseWebhook(created.rawBody, created.headers)).toMatchObject({
      kind: "refund",
      refundId,
      result: { state: "pending" },
    });

    const failed = standIn.signedEvent("charge.refund.updated", {
      ...refund,
      status: "failed",
      failure_reason: "expired_or_canceled_card",
    });
    expect(await stripe.parseWebhook(failed.rawBody, failed.headers)).toMatchObject({
      kind: "refund",
      providerRefundRef: refund.id,
      refundId,
      result: { state: "failed", reason: "Stripe refund failed: expired_or_canceled_card" },
    });
  });

  test("events the marketplace does not act on are ignored with their type", async () => {
    const delivery = standIn.signedEvent("payment_intent.created", {
      id: "pi_123",
      object: "payment_intent",
    });
    expect(await stripe.parseWebhook(delivery.rawBody, delivery.headers)).toEqual({
      eventId: expect.stringMatching(/^evt_/),
      kind: "ignored",
      type: "payment_intent.created",
    });
  });

  test("refuses a missing signature, another secret's, a stale one and a body changed after signing", async () => {
    const { session } = await paidSession();
    const genuine = standIn.signedEvent("checkout.session.completed", session);
    const refused = [
      { rawBody: genuine.rawBody, headers: {} },
      standIn.signedEvent("checkout.session.completed", session, { secret: "whsec_someone_else" }),
      // Stripe's tolerance is five minutes: a replay of an old delivery is refused.
      standIn.signedEvent("checkout.session.completed", session, {
        timestamp: Math.floor(Date.now() / 1000) - 10 * 60,
      }),
      {
        rawBody: Buffer.from(
          genuine.rawBody.toString("utf8").replace('"amount_total": 12345', '"amount_total": 1'),
        ),
        headers: genuine.headers,
      },
    ];
    expect(refused[3]!.rawBody.equals(genuine.rawBody)).toBe(false);
    for (const delivery of refused)
      await expect(stripe.parseWebhook(delivery.rawBody, delivery.headers)).rejects.toBeInstanceOf(
        InvalidWebhookSignature,
      );
    // The SDK checks only the past; a delivery signed more than its tolerance ahead is refused too.
    const ahead = standIn.signedEvent("checkout.session.completed", session, {
      timestamp: Math.floor(Date.now() / 1000) + 10 * 60,
    });
    await expect(stripe.parseWebhook(ahead.rawBody, ahead.headers)).rejects.toThrow("ahead of now");
    const slightlyAhead = standIn.signedEvent("checkout.session.completed", session, {
      timestamp: Math.floor(Date.now() / 1000) + 60,
    });
    await expect(stripe.parseWebhook(slightlyAhead.rawBody, slightlyAhead.headers)).resolves.toMatchObject({
      kind: "payment",
    });
    // The genuine delivery itself verifies.
    await expect(stripe.parseWebhook(genuine.rawBody, genuine.headers)).resolves.toMatchObject({
      kind: "payment",
    });
  });
});

describe("refund", () => {
  test("refunds the session's payment in part, with our refund and order ids on Stripe's refund", async () => {
    const { start, providerRef, session } = await paidSession(10_000);
    const refundId = randomUUID();
    const result = await stripe.refund({ refundId, orderId: start.orderId, providerRef, amountCents: 2_500 });

    expect(result).toEqual({ providerRefundRef: expect.stringMatching(/^re_/), state: "succeeded" });
    expect(standIn.refunds().find((r) => r.id === result.providerRefundRef)).toMatchObject({
      amount: 2_500,
      payment_intent: session.payment_intent,
      metadata: { refundId, orderId: start.orderId },
    });
    expect(standIn.requests.at(-1)).toMatchObject({
      path: "/v1/refunds",
      idempotencyKey: `refund:${refundId}`,
    });
  });

  test("a retried refund answers the first one and does not pay twice", async () => {
    const { start, providerRef } = await paidSession(10_000);
    const request = { refundId: randomUUID(), orderId: start.orderId, providerRef, amountCents: 10_000 };
    const first = await stripe.refund(request);
    const again = await stripe.refund(request);
    expect(again).toEqual(first);
    expect(standIn.refunds().filter((r) => r.metadata.refundId === request.refundId)).toHaveLength(1);
  });

  test("Stripe refusing a refund is a failed refund with Stripe's reason, not an error", async () => {
    const { start, providerRef } = await paidSession(10_000);
    standIn.failNextRefund("This PaymentIntent's charge was disputed and cannot be refunded.");
    expect(
      await stripe.refund({ refundId: randomUUID(), orderId: start.orderId, providerRef, amountCents: 500 }),
    ).toEqual({
      providerRefundRef: "",
      state: "failed",
      reason: "This PaymentIntent's charge was disputed and cannot be refunded.",
    });

    await stripe.refund({ refundId: randomUUID(), orderId: start.orderId, providerRef, amountCents: 10_000 });
    const charge = standIn.refunds().find((r) => r.metadata.orderId === start.orderId)!.charge;
    expect(
      await stripe.refund({ refundId: randomUUID(), orderId: start.orderId, providerRef, amountCents: 1 }),
    ).toEqual({
      providerRefundRef: "",
      state: "failed",
      reason: `Charge ${charge} has already been refunded.`,
    });
  });

  test("a session nobody paid has nothing to refund", async () => {
    const start = payment();
    const { providerRef } = await stripe.start(start);
    expect(
      await stripe.refund({ refundId: randomUUID(), orderId: start.orderId, providerRef, amountCents: 100 }),
    ).toEqual({
      providerRefundRef: "",
      state: "failed",
      reason: `Checkout session ${providerRef} has no payment to refund`,
    });
  });

  test("an unreachable Stripe or a refused API key is thrown for the caller to retry", async () => {
    const { start, providerRef } = await paidSession();
    const request = { refundId: randomUUID(), orderId: start.orderId, providerRef, amountCents: 100 };

    const unreachable = createStripeProvider({ ...keys, apiBase: `http://127.0.0.1:${await freePort()}` });
    await expect(unreachable.refund(request)).rejects.toBeInstanceOf(Stripe.errors.StripeConnectionError);

    const wrongKey = createStripeProvider({ ...keys, secretKey: "sk_test_revoked", apiBase: standIn.url });
    await expect(wrongKey.refund(request)).rejects.toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    expect(standIn.refunds().filter((r) => r.metadata.refundId === request.refundId)).toHaveLength(0);
  });
});

describe("parseWebhook with a Connect endpoint of its own", () => {
  const connectSecret = "whsec_stand_in_connect";
  const both = () =>
    createStripeProvider({ ...keys, connectWebhookSecret: connectSecret, apiBase: standIn.url });
  const account = () => ({
    id: "acct_stand_in",
    object: "account",
    payouts_enabled: true,
    details_submitted: true,
    requirements: { currently_due: [] },
  });

  test("each secret accepts only its own endpoint's events", async () => {
    const provider = both();
    const connect = standIn.signedEvent("account.updated", account(), { secret: connectSecret });
    expect(await provider.parseWebhook(connect.rawBody, connect.headers)).toMatchObject({ kind: "account" });
    const { session } = await paidSession();
    const platform = standIn.signedEvent("checkout.session.completed", session);
    expect(await provider.parseWebhook(platform.rawBody, platform.headers)).toMatchObject({
      kind: "payment",
    });

    // A payment event signed with the Connect endpoint's secret, and the other way round, is refused.
    const forgedPayment = standIn.signedEvent("checkout.session.completed", session, {
      secret: connectSecret,
    });
    await expect(provider.parseWebhook(forgedPayment.rawBody, forgedPayment.headers)).rejects.toThrow(
      "checkout.session.completed is not an event of the connect endpoint",
    );
    const refund = standIn.signedEvent(
      "refund.updated",
      { id: "re_1", object: "refund", status: "succeeded" },
      {
        secret: connectSecret,
      },
    );
    await expect(provider.parseWebhook(refund.rawBody, refund.headers)).rejects.toBeInstanceOf(
      InvalidWebhookSignature,
    );
    const forgedAccount = standIn.signedEvent("account.updated", account());
    await expect(provider.parseWebhook(forgedAccount.rawBody, forgedAccount.headers)).rejects.toThrow(
      "account.updated is not an event of the platform endpoint",
    );
  });

  test("without a Connect secret, the one endpoint's secret signs both (a single endpoint, or stripe listen)", async () => {
    const delivery = standIn.signedEvent("account.updated", account());
    expect(await stripe.parseWebhook(delivery.rawBody, delivery.headers)).toMatchObject({ kind: "account" });
  });
});

function setup(overrides: Partial<SetupStart> = {}): SetupStart {
  const setupId = randomUUID();
  return {
    setupId,
    kind: "card",
    customerRef: null,
    userId: randomUUID(),
    email: "buyer@example.com",
    returnUrl: `http://localhost:5173/account/payment-methods/${setupId}/return`,
    cancelUrl: "http://localhost:5173/account/payment-methods",
    ...overrides,
  };
}

/** A buyer's card saved through a setup session: the customer and PaymentMethod to charge off session. */
async function savedCard(card: StandInTestCard = "pm_card_visa") {
  const { providerRef, customerRef } = await stripe.startSetup(setup());
  standIn.markSaved(providerRef, card);
  const state = await stripe.completeSetup(providerRef, { session_id: providerRef });
  if (state.state !== "saved") throw new Error(`setup ${providerRef} is ${state.state}`);
  expect(state.method.customerRef).toBe(customerRef);
  return state.method;
}

function offSession(method: SavedMethodDetails, overrides: Partial<OffSessionCharge> = {}): OffSessionCharge {
  const orderId = randomUUID();
  return {
    orderId,
    idempotencyKey: `${orderId}:1`,
    amountCents: 4_999,
    description: `Stackbay order ${orderId.slice(0, 8).toUpperCase()}`,
    customerRef: method.customerRef,
    methodRef: method.methodRef,
    ...overrides,
  };
}

describe("startSetup", () => {
  test("makes the buyer a customer once and opens a card-only setup session for it", async () => {
    const start = setup();
    const started = await stripe.startSetup(start);

    const session = standIn.session(started.providerRef);
    const customer = standIn.customer(started.customerRef ?? "");
    expect(customer).toMatchObject({ email: start.email, metadata: { userId: start.userId } });
    expect(started).toEqual({ providerRef: session.id, redirectUrl: session.url, customerRef: customer.id });
    expect(session).toMatchObject({
      mode: "setup",
      status: "open",
      customer: customer.id,
      currency: "usd",
      metadata: { setupId: start.setupId },
      success_url: `${start.returnUrl}?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: start.cancelUrl,
    });
    expect(standIn.sessionParams(session.id)).toMatchObject({
      allowed_payment_method_types: { "0": "card" },
    });
    expect(standIn.requests.slice(-2)).toMatchObject([
      { method: "POST", path: "/v1/customers", idempotencyKey: `customer:${start.setupId}` },
      { method: "POST", path: "/v1/checkout/sessions", idempotencyKey: `setup:${start.setupId}` },
    ]);

    // Repeated after a crash: the same customer and session, nothing new made.
    const customersBefore = standIn.customers().length;
    expect(await stripe.startSetup(start)).toEqual(started);
    expect(standIn.customers()).toHaveLength(customersBefore);
    expect(standIn.requests.slice(-2).map((r) => r.replayed)).toEqual([true, true]);
  });

  test("a buyer who is a customer already is not made another one", async () => {
    const first = await stripe.startSetup(setup());
    const customersBefore = standIn.customers().length;
    const again = await stripe.startSetup(setup({ customerRef: first.customerRef }));

    expect(again.customerRef).toBe(first.customerRef);
    expect(again.providerRef).not.toBe(first.providerRef);
    expect(standIn.session(again.providerRef).customer).toBe(first.customerRef);
    expect(standIn.customers()).toHaveLength(customersBefore);
    expect(standIn.requests.at(-1)).toMatchObject({ path: "/v1/checkout/sessions" });
  });

  test("PayPal is not saved through Stripe", async () => {
    const requestsBefore = standIn.requests.length;
    await expect(stripe.startSetup(setup({ kind: "paypal" }))).rejects.toThrow("only cards");
    expect(standIn.requests).toHaveLength(requestsBefore);
  });
});

describe("completeSetup", () => {
  test("pending until the buyer saves a card, then saved with the card's details", async () => {
    const { providerRef, customerRef } = await stripe.startSetup(setup());
    expect(await stripe.completeSetup(providerRef, {})).toEqual({ state: "pending" });

    standIn.markSaved(providerRef, "pm_card_mastercard");
    const saved = await stripe.completeSetup(providerRef, { session_id: providerRef });
    const intent = standIn.setupIntent(standIn.session(providerRef).setup_intent ?? "");
    expect(intent.payment_method).toMatch(/^pm_/);
    expect(saved).toEqual({
      state: "saved",
      method: {
        kind: "card",
        customerRef,
        methodRef: intent.payment_method,
        brand: "mastercard",
        last4: "4444",
        expMonth: 12,
        expYear: 2034,
        fingerprint: "fp_mastercard4444",
        email: null,
      },
    });
    // Safe to ask again (the return page and the webhook both do).
    expect(await stripe.completeSetup(providerRef, {})).toEqual(saved);
    expect(standIn.paymentMethod(intent.payment_method ?? "").customer).toBe(customerRef);
  });

  test("the same card saved by two buyers has one fingerprint, on two customers' methods", async () => {
    const first = await savedCard("pm_card_visa");
    const second = await savedCard("pm_card_visa");
    expect(first).toMatchObject({ brand: "visa", last4: "4242", fingerprint: "fp_visa4242" });
    expect(second.fingerprint).toBe(first.fingerprint);
    expect(second.customerRef).not.toBe(first.customerRef);
    expect(second.methodRef).not.toBe(first.methodRef);
  });

  test("a card refused while saving is failed with Stripe's message; an expired session is cancelled", async () => {
    const { providerRef } = await stripe.startSetup(setup());
    standIn.markSaved(providerRef, "pm_card_visa_chargeDeclined");
    expect(await stripe.completeSetup(providerRef, {})).toEqual({
      state: "failed",
      reason: "Your card was declined.",
    });

    standIn.markExpired(providerRef);
    expect(await stripe.completeSetup(providerRef, {})).toEqual({ state: "cancelled" });
  });

  test("a payment session is not a setup", async () => {
    const { providerRef } = await stripe.start(payment());
    await expect(stripe.completeSetup(providerRef, {})).rejects.toThrow("is not a setup session");
  });
});

describe("chargeSaved", () => {
  test("charges the saved card off session, in US cents, with the order on the PaymentIntent", async () => {
    const method = await savedCard();
    const charge = offSession(method);
    const result = await stripe.chargeSaved(charge);

    expect(result).toEqual({
      state: "paid",
      providerRef: expect.stringMatching(/^pi_/),
      amountCents: 4_999,
      currency: "usd",
    });
    if (result.state !== "paid") return;
    expect(standIn.paymentIntent(result.providerRef)).toMatchObject({
      status: "succeeded",
      amount: 4_999,
      customer: method.customerRef,
      payment_method: method.methodRef,
      description: charge.description,
      metadata: { orderId: charge.orderId, offSession: "1" },
    });
    expect(standIn.paymentIntentParams(result.providerRef)).toMatchObject({
      off_session: "true",
      confirm: "true",
    });
    expect(standIn.requests.at(-1)).toMatchObject({
      path: "/v1/payment_intents",
      idempotencyKey: charge.idempotencyKey,
    });
  });

  test("asked again with the same key, answers the same PaymentIntent and does not charge twice", async () => {
    const charge = offSession(await savedCard());
    const first = await stripe.chargeSaved(charge);
    const again = await stripe.chargeSaved(charge);

    expect(again).toEqual(first);
    expect(standIn.paymentIntents().filter((pi) => pi.metadata.orderId === charge.orderId)).toHaveLength(1);
    expect(
      standIn.requests.filter(
        (r) => r.path === "/v1/payment_intents" && r.idempotencyKey === charge.idempotencyKey,
      ),
    ).toMatchObject([{ replayed: false }, { replayed: true }]);

    const retry = await stripe.chargeSaved({ ...charge, idempotencyKey: `${charge.orderId}:2` });
    expect(retry.state === "paid" && retry.providerRef).not.toBe(first.state === "paid" && first.providerRef);
    expect(standIn.paymentIntents().filter((pi) => pi.metadata.orderId === charge.orderId)).toHaveLength(2);
  });

  test("insufficient funds is a soft decline: the same card may pass later", async () => {
    const result = await stripe.chargeSaved(
      offSession(await savedCard("pm_card_chargeDeclinedInsufficientFunds")),
    );
    expect(result).toEqual({
      state: "declined",
      providerRef: expect.stringMatching(/^pi_/),
      reason: "Your card has insufficient funds.",
      hard: false,
    });
    if (result.state !== "declined") return;
    // The refused PaymentIntent is the one Stripe kept, failed.
    expect(standIn.paymentIntent(result.providerRef ?? "")).toMatchObject({
      status: "requires_payment_method",
      last_payment_error: { decline_code: "insufficient_funds" },
    });
    // The issuer's generic refusal, charged with Stripe's test id as it is (that card cannot be saved).
    const generic = { ...(await savedCard()), methodRef: "pm_card_visa_chargeDeclined" };
    expect(await stripe.chargeSaved(offSession(generic))).toMatchObject({
      state: "declined",
      reason: "Your card was declined.",
      hard: false,
    });
  });

  test("a stolen card is a hard decline", async () => {
    expect(await stripe.chargeSaved(offSession(await savedCard("pm_card_chargeDeclinedStolenCard")))).toEqual(
      {
        state: "declined",
        providerRef: expect.stringMatching(/^pi_/),
        reason: "Your card was declined.",
        hard: true,
      },
    );
  });

  test("a charge the issuer wants authenticated is a hard decline: the buyer must be there", async () => {
    expect(await stripe.chargeSaved(offSession(await savedCard("pm_card_authenticationRequired")))).toEqual({
      state: "declined",
      providerRef: expect.stringMatching(/^pi_/),
      reason: "Your card was declined. This transaction requires authentication.",
      hard: true,
    });
  });

  test("a method detached from its customer is a hard decline without a PaymentIntent", async () => {
    const method = await savedCard();
    standIn.detachPaymentMethod(method.methodRef);
    expect(await stripe.chargeSaved(offSession(method))).toEqual({
      state: "declined",
      providerRef: null,
      reason: `No such PaymentMethod: '${method.methodRef}'`,
      hard: true,
    });
  });

  test("a charge Stripe accepted but has not settled is pending", async () => {
    standIn.holdNextCharge();
    const result = await stripe.chargeSaved(offSession(await savedCard()));
    expect(result).toEqual({ state: "pending", providerRef: expect.stringMatching(/^pi_/) });
  });

  test("an unreachable Stripe or a refused API key is thrown, not a decline", async () => {
    const charge = offSession(await savedCard());
    const unreachable = createStripeProvider({ ...keys, apiBase: `http://127.0.0.1:${await freePort()}` });
    await expect(unreachable.chargeSaved(charge)).rejects.toBeInstanceOf(Stripe.errors.StripeConnectionError);
    const wrongKey = createStripeProvider({ ...keys, secretKey: "sk_test_revoked", apiBase: standIn.url });
    await expect(wrongKey.chargeSaved(charge)).rejects.toBeInstanceOf(
      Stripe.errors.StripeAuthenticationError,
    );
    expect(standIn.paymentIntents().filter((pi) => pi.metadata.orderId === charge.orderId)).toHaveLength(0);
  });

  test("the hard declines are the card-is-gone and buyer-must-act reasons only", () => {
    for (const code of ["stolen_card", "lost_card", "expired_card", "authentication_required", "fraudulent"])
      expect(STRIPE_HARD_DECLINES.has(code)).toBe(true);
    for (const code of [
      "insufficient_funds",
      "generic_decline",
      "do_not_honor",
      "try_again_later",
      "processing_error",
    ])
      expect(STRIPE_HARD_DECLINES.has(code)).toBe(false);
  });
});

describe("an off-session charge's PaymentIntent in lookup and refund", () => {
  test("lookup reads the PaymentIntent: paid, failed with the decline, pending, cancelled", async () => {
    const paid = await stripe.chargeSaved(offSession(await savedCard()));
    expect(await stripe.lookup(paid.providerRef ?? "")).toEqual({
      state: "paid",
      amountCents: 4_999,
      currency: "usd",
    });
    expect(standIn.requests.at(-1)).toMatchObject({
      method: "GET",
      path: `/v1/payment_intents/${paid.providerRef}`,
    });

    const declined = await stripe.chargeSaved(
      offSession(await savedCard("pm_card_chargeDeclinedInsufficientFunds")),
    );
    expect(await stripe.lookup(declined.providerRef ?? "")).toEqual({
      state: "failed",
      reason: "Your card has insufficient funds.",
    });
    standIn.cancelPaymentIntent(declined.providerRef ?? "");
    expect(await stripe.lookup(declined.providerRef ?? "")).toEqual({ state: "cancelled" });

    standIn.holdNextCharge();
    const held = await stripe.chargeSaved(offSession(await savedCard()));
    expect(await stripe.lookup(held.providerRef ?? "")).toEqual({ state: "pending" });
    standIn.settleCharge(held.providerRef ?? "", "succeeded");
    expect(await stripe.lookup(held.providerRef ?? "")).toMatchObject({ state: "paid", amountCents: 4_999 });
  });

  test("refund returns the charge's money against its PaymentIntent", async () => {
    const charge = offSession(await savedCard(), { amountCents: 10_000 });
    const paid = await stripe.chargeSaved(charge);
    const providerRef = paid.providerRef ?? "";
    const refundId = randomUUID();
    const result = await stripe.refund({
      refundId,
      orderId: charge.orderId,
      providerRef,
      amountCents: 2_500,
    });

    expect(result).toEqual({ providerRefundRef: expect.stringMatching(/^re_/), state: "succeeded" });
    expect(standIn.refunds().find((r) => r.id === result.providerRefundRef)).toMatchObject({
      amount: 2_500,
      currency: "usd",
      payment_intent: providerRef,
      metadata: { refundId, orderId: charge.orderId },
    });
    // Straight to the refund: there is no Checkout Session to read the PaymentIntent from.
    expect(standIn.requests.slice(-1)).toMatchObject([
      { path: "/v1/refunds", idempotencyKey: `refund:${refundId}` },
    ]);
    expect(
      await stripe.refund({
        refundId: randomUUID(),
        orderId: charge.orderId,
        providerRef,
        amountCents: 7_501,
      }),
    ).toMatchObject({
      state: "failed",
      reason: "Refund amount ($75.01) is greater than unrefunded amount on charge ($75.00)",
    });
  });
});

describe("parseWebhook for saved methods", () => {
  test("a setup session's completion or expiry is a setup event, not a payment", async () => {
    const { providerRef } = await stripe.startSetup(setup());
    const completed = standIn.signedEvent("checkout.session.completed", standIn.markSaved(providerRef));
    expect(await stripe.parseWebhook(completed.rawBody, completed.headers)).toEqual({
      eventId: expect.stringMatching(/^evt_/),
      kind: "setup",
      providerRef,
    });

    const other = await stripe.startSetup(setup());
    const expired = standIn.signedEvent("checkout.session.expired", standIn.markExpired(other.providerRef));
    expect(await stripe.parseWebhook(expired.rawBody, expired.headers)).toEqual({
      eventId: expect.stringMatching(/^evt_/),
      kind: "setup",
      providerRef: other.providerRef,
    });
  });

  test("an off-session charge's PaymentIntent events are the order's payment", async () => {
    const charge = offSession(await savedCard());
    const paid = await stripe.chargeSaved(charge);
    const intent = standIn.paymentIntent(paid.providerRef ?? "");

    const succeeded = standIn.signedEvent("payment_intent.succeeded", intent);
    expect(await stripe.parseWebhook(succeeded.rawBody, succeeded.headers)).toEqual({
      eventId: expect.stringMatching(/^evt_/),
      kind: "payment",
      providerRef: intent.id,
      orderId: charge.orderId,
      result: { state: "paid", amountCents: 4_999, currency: "usd" },
    });

    const refusal = offSession(await savedCard("pm_card_chargeDeclinedStolenCard"));
    const declined = await stripe.chargeSaved(refusal);
    const failed = standIn.signedEvent(
      "payment_intent.payment_failed",
      standIn.paymentIntent(declined.providerRef ?? ""),
    );
    expect(await stripe.parseWebhook(failed.rawBody, failed.headers)).toEqual({
      eventId: expect.stringMatching(/^evt_/),
      kind: "payment",
      providerRef: declined.providerRef,
      orderId: refusal.orderId,
      result: { state: "failed", reason: "Your card was declined." },
    });

    const canceled = standIn.signedEvent(
      "payment_intent.canceled",
      standIn.cancelPaymentIntent(declined.providerRef ?? ""),
    );
    expect(await stripe.parseWebhook(canceled.rawBody, canceled.headers)).toMatchObject({
      kind: "payment",
      providerRef: declined.providerRef,
      result: { state: "cancelled" },
    });
  });

  test("the PaymentIntent a Checkout Session made is told by the session's events: its own are ignored", async () => {
    const { start, session } = await paidSession();
    const checkoutIntent = {
      id: session.payment_intent,
      object: "payment_intent",
      status: "succeeded",
      amount: 12_345,
      amount_received: 12_345,
      currency: "usd",
      metadata: {},
      last_payment_error: null,
    };
    for (const type of [
      "payment_intent.succeeded",
      "payment_intent.payment_failed",
      "payment_intent.canceled",
    ]) {
      const delivery = standIn.signedEvent(type, checkoutIntent);
      expect(await stripe.parseWebhook(delivery.rawBody, delivery.headers)).toEqual({
        eventId: expect.stringMatching(/^evt_/),
        kind: "ignored",
        type,
      });
    }
    // Even one carrying the order id (payment_intent_data.metadata) is not mistaken for an off-session charge.
    const withOrder = standIn.signedEvent("payment_intent.succeeded", {
      ...checkoutIntent,
      metadata: { orderId: start.orderId },
    });
    expect(await stripe.parseWebhook(withOrder.rawBody, withOrder.headers)).toMatchObject({
      kind: "ignored",
    });
  });
});

describe("forgetSaved", () => {
  test("detaches the removed card from its customer, so it cannot be charged; asked again, it is done", async () => {
    const method = await savedCard();
    await stripe.forgetSaved(method);
    expect(standIn.paymentMethod(method.methodRef)).toMatchObject({ customer: null });
    const refused = await stripe.chargeSaved(offSession(method));
    expect(refused).toMatchObject({ state: "declined", hard: true });
    // Already detached (a retried job), or unknown to Stripe: nothing is left to remove. Stripe refuses to
    // detach a method twice, so the second call must not ask it to.
    const detaches = () => standIn.requests.filter((r) => r.path.endsWith("/detach")).length;
    const before = detaches();
    await stripe.forgetSaved(method);
    expect(detaches()).toBe(before);
    await stripe.forgetSaved({ ...method, methodRef: "pm_never_made" });
  });
});
