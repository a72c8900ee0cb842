import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { PaymentMethod } from "#domain/checkout";
import { paymentProblem } from "#domain/payments";
import { licenses } from "#server/db/schema/after-sale";
import { products } from "#server/db/schema/catalog";
import { orders } from "#server/db/schema/orders";
import { paymentEvents, payments } from "#server/db/schema/payments";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import { paymentDepsOf, reconcilePayments } from "#server/modules/payments/service";
import { firstOpenOrder } from "#server/modules/privacy/repository";
import { deliverTestEvent, signTestEvent, type TestWebhookEvent } from "#server/payments/test-provider";
import { createTestApp } from "#server/test/app";
import { createClient, signedInClient } from "#server/test/client";
import { orderBody, placeOrder } from "#server/test/orders";
import { readOutbox } from "#server/test/outbox";
import { choose, eventsDelivered, getOrder, payOrder, returnToSite, testRef } from "#server/test/payments";

let t: Awaited<ReturnType<typeof createTestApp>>;
let buyer: ReturnType<typeof createClient>;
let other: ReturnType<typeof createClient>;
let productId = "";

beforeAll(async () => {
  t = await createTestApp({ seed: true });
  buyer = await signedInClient(t.app, "buyer@stackbay.test", DEMO_PASSWORD);
  other = await signedInClient(t.app, "seller@stackbay.test", DEMO_PASSWORD);
  const [made] = await t.db
    .insert(products)
    .values({ name: "Payment Seat", category: "software", price: "19.99", vendor: "Acme" })
    .returning({ id: products.id });
  productId = made?.id ?? "";
});
afterAll(() => t.close());

const checkout = (idempotencyKey: string, paymentMethod: PaymentMethod = "stripe") => ({
  paymentMethod,
  items: [{ productId, quantity: 2, price: 19.99 }],
  idempotencyKey,
});
const place = (key: string = randomUUID(), paymentMethod?: PaymentMethod) =>
  placeOrder(buyer, checkout(key, paymentMethod));

const licensesOf = (orderId: string) => t.db.select().from(licenses).where(eq(licenses.orderId, orderId));
const paymentsOf = (orderId: string) =>
  t.db.select().from(payments).where(eq(payments.orderId, orderId)).orderBy(payments.attempt);
const eventCount = async () => (await t.db.select().from(paymentEvents)).length;
const confirmations = async (orderId: string) =>
  (await readOutbox(t.dataDir)).filter(
    (m) => m.subject === `Your Stackbay order ${orderId.slice(0, 8)} is confirmed`,
  ).length;

/** 2 × 19.99 plus 5% tax, in cents: what the provider is asked to charge. */
const AMOUNT = 4198;

function paidEvent(
  ref: string,
  orderId: string,
  overrides: Partial<TestWebhookEvent> = {},
): TestWebhookEvent {
  return {
    id: `evt_test_${randomUUID()}`,
    type: "payment.succeeded",
    data: { ref, orderId, amountCents: AMOUNT, reason: null },
    ...overrides,
  };
}

describe("paying in test mode", () => {
  test("placing answers the test page and a pending order; Pay confirms it through the webhook, once", async () => {
    const placed = await place();
    expect(placed.redirectUrl).toMatch(/^http:\/\/[^/]+\/pay\/test\/tps_[0-9a-f]{24}$/);
    expect((await getOrder(buyer, placed.orderId)).paymentStatus).toBe("pending");
    const session = (await buyer.get(`/api/payments/test/sessions/${testRef(placed.redirectUrl)}`)).json();
    expect(session).toMatchObject({ amountCents: AMOUNT, state: "pending" });
    expect(session.description).toBe(`Stackbay order ${placed.orderId.slice(0, 8).toUpperCase()}`);

    const back = await choose(buyer, placed.redirectUrl, "pay");
    expect(back).toMatch(new RegExp(`/checkout/complete\\?order=${placed.orderId}$`));
    await eventsDelivered(t.app);
    const order = await getOrder(buyer, placed.orderId);
    expect(order).toMatchObject({ paymentStatus: "mock_confirmed", isPaid: true });
    expect(await licensesOf(placed.orderId)).toHaveLength(2);

    // The buyer comes back after the webhook: nothing more happens.
    expect(await returnToSite(buyer, placed.orderId)).toMatchObject({
      paymentStatus: "mock_confirmed",
      payment: { attempt: 1, provider: "test", state: "paid", reason: null },
    });
    expect(await licensesOf(placed.orderId)).toHaveLength(2);
    expect(await confirmations(placed.orderId)).toBe(1);
  });

  test("a decline is worded after the method chosen: a PayPal decline is PayPal's, not a card's", async () => {
    const placed = await place(undefined, "paypal");
    await choose(buyer, placed.redirectUrl, "decline");
    await eventsDelivered(t.app);
    const answer = await returnToSite(buyer, placed.orderId);
    expect(answer).toMatchObject({ paymentStatus: "failed", method: "paypal", payment: { state: "failed" } });
    expect(paymentProblem(answer)).toBe(
      "PayPal declined the payment. Reason given: Decline was chosen on the test payment page (test mode).",
    );
    expect(paymentProblem(answer)).not.toMatch(/card/i);
  });

  test("Decline fails the order; trying again is a new attempt that pays", async () => {
    const key = randomUUID();
    const placed = await place(key);
    await choose(buyer, placed.redirectUrl, "decline");
    await eventsDelivered(t.app);
    expect(await returnToSite(buyer, placed.orderId)).toMatchObject({
      paymentStatus: "failed",
      method: "stripe",
      payment: {
        attempt: 1,
        state: "failed",
        reason: "Decline was chosen on the test payment page (test mode).",
      },
    });
    expect(await licensesOf(placed.orderId)).toHaveLength(0);

    // The same checkout sent again (the cart was kept) opens a second attempt on a new session.
    const again = await buyer.post("/api/orders", orderBody(checkout(key)));
    expect(again.statusCode).toBe(200);
    expect(again.json().orderId).toBe(placed.orderId);
    expect(testRef(again.json().redirectUrl)).not.toBe(testRef(placed.redirectUrl));
    expect((await getOrder(buyer, placed.orderId)).paymentStatus).toBe("pending");
    // Asking once more while it is open answers the same session.
    const retry = await buyer.post(`/api/orders/${placed.orderId}/payment`);
    expect(retry.json().redirectUrl).toBe(again.json().redirectUrl);

    expect(await payOrder(t.app, buyer, placed.orderId)).toMatchObject({ paymentStatus: "mock_confirmed" });
    expect((await paymentsOf(placed.orderId)).map((p) => [p.attempt, p.state])).toEqual([
      [1, "failed"],
      [2, "paid"],
    ]);
    expect(await licensesOf(placed.orderId)).toHaveLength(2);
    // Paid orders are not paid again: the payment page is the return page.
    const paid = await buyer.post(`/api/orders/${placed.orderId}/payment`);
    expect(paid.json().redirectUrl).toMatch(/\/checkout\/complete\?order=/);
  });

  test("Cancel sends the buyer to the cancel URL and fails the order as cancelled", async () => {
    const placed = await place();
    expect(await choose(buyer, placed.redirectUrl, "cancel")).toMatch(/&cancelled=1$/);
    await eventsDelivered(t.app);
    expect(await returnToSite(buyer, placed.orderId)).toMatchObject({
      paymentStatus: "failed",
      payment: { state: "cancelled", reason: "cancelled" },
    });
  });

  test("the buyer's return before the webhook confirms once; the event then changes nothing", async () => {
    const test = t.app.payments.test;
    if (!test) throw new Error("test mode expected");
    const placed = await place();
    test.controls.dropEvents = true;
    try {
      await choose(buyer, placed.redirectUrl, "pay");
    } finally {
      test.controls.dropEvents = false;
    }
    expect((await getOrder(buyer, placed.orderId)).paymentStatus).toBe("pending");
    expect(await returnToSite(buyer, placed.orderId)).toMatchObject({ paymentStatus: "mock_confirmed" });
    expect(await deliverTestEvent(t.app, paidEvent(testRef(placed.redirectUrl), placed.orderId))).toBe(200);
    expect(await licensesOf(placed.orderId)).toHaveLength(2);
    expect(await confirmations(placed.orderId)).toBe(1);
  });
});

describe("the webhook", () => {
  test("a repeated event answers 200 and delivers nothing twice", async () => {
    const placed = await place();
    const event = paidEvent(testRef(placed.redirectUrl), placed.orderId);
    expect(await deliverTestEvent(t.app, event)).toBe(200);
    const stored = await eventCount();
    expect(await deliverTestEvent(t.app, event)).toBe(200);
    expect(await eventCount()).toBe(stored);
    expect(await licensesOf(placed.orderId)).toHaveLength(2);
    expect(await confirmations(placed.orderId)).toBe(1);
  });

  test("an event for no payment we know is stored, answered 200, and changes nothing", async () => {
    const before = await t.db.select({ id: orders.id, status: orders.paymentStatus }).from(orders);
    const event = paidEvent("tps_000000000000000000000000", randomUUID());
    expect(await deliverTestEvent(t.app, event)).toBe(200);
    const [row] = await t.db.select().from(paymentEvents).where(eq(paymentEvents.eventId, event.id));
    expect(row).toMatchObject({ provider: "test", kind: "payment", orderId: null });
    expect(await t.db.select({ id: orders.id, status: orders.paymentStatus }).from(orders)).toEqual(before);
  });

  test("a bad or stale signature answers 400 and stores nothing", async () => {
    const placed = await place();
    const body = JSON.stringify(paidEvent(testRef(placed.redirectUrl), placed.orderId));
    const stored = await eventCount();
    const post = (signature: string) =>
      t.app.inject({
        method: "POST",
        url: "/api/payments/webhooks/test",
        headers: { "content-type": "application/json", "test-signature": signature },
        payload: body,
      });
    const secret = t.app.payments.test?.secret ?? "";
    const wrong = await post(signTestEvent("not-the-secret", body));
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().code).toBe("INVALID_SIGNATURE");
    expect((await post(signTestEvent(secret, `${body} `))).statusCode).toBe(400);
    expect((await post(signTestEvent(secret, body, new Date(Date.now() - 6 * 60_000)))).statusCode).toBe(400);
    expect((await post("")).statusCode).toBe(400);
    expect(await eventCount()).toBe(stored);
    expect((await getOrder(buyer, placed.orderId)).paymentStatus).toBe("pending");
    // The same bytes correctly signed are accepted: the raw body is what is verified.
    expect((await post(signTestEvent(secret, body))).statusCode).toBe(200);
    expect((await getOrder(buyer, placed.orderId)).paymentStatus).toBe("mock_confirmed");
  });

  test("a failure arriving after the payment does not undo a paid order", async () => {
    const placed = await place();
    const ref = testRef(placed.redirectUrl);
    await deliverTestEvent(t.app, paidEvent(ref, placed.orderId));
    const late = paidEvent(ref, placed.orderId, {
      type: "payment.failed",
      data: { ref, orderId: placed.orderId, amountCents: AMOUNT, reason: "late decline" },
    });
    expect(await deliverTestEvent(t.app, late)).toBe(200);
    expect((await getOrder(buyer, placed.orderId)).paymentStatus).toBe("mock_confirmed");
    expect((await paymentsOf(placed.orderId)).map((p) => p.state)).toEqual(["paid"]);
  });

  test("a payment for another amount is not delivered", async () => {
    const placed = await place();
    const ref = testRef(placed.redirectUrl);
    const short = paidEvent(ref, placed.orderId, {
      data: { ref, orderId: placed.orderId, amountCents: 1, reason: null },
    });
    expect(await deliverTestEvent(t.app, short)).toBe(200);
    expect((await getOrder(buyer, placed.orderId)).paymentStatus).toBe("pending");
    expect(await licensesOf(placed.orderId)).toHaveLength(0);
  });

  test("providers that are not configured have no webhook, and writes to it need no Origin", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/payments/webhooks/stripe",
      headers: { "content-type": "application/json", origin: "https://elsewhere.example" },
      payload: "{}",
    });
    expect(res.statusCode).toBe(404);
  });

  test("a crash inside the webhook's transaction rolls back the event row too; the retry delivers", async () => {
    const placed = await place();
    const event = paidEvent(testRef(placed.redirectUrl), placed.orderId);
    // The license insert, after the event row, fails once: as a process dying mid-transaction would.
    // A sequence counts the calls because, unlike a table, it is not rolled back with the failure.
    await t.db.execute(sql`create sequence crash_calls`);
    await t.db.execute(sql`create function crash_licenses() returns trigger language plpgsql as $$
      begin
        if nextval('crash_calls') = 1 then
          raise exception 'simulated crash';
        end if;
        return new;
      end $$`);
    await t.db.execute(
      sql`create trigger crash_licenses before insert on licenses for each row execute function crash_licenses()`,
    );
    try {
      const stored = await eventCount();
      const crashed = await deliverTestEvent(t.app, event);
      expect(crashed).toBe(500);
      expect(await eventCount()).toBe(stored);
      expect((await getOrder(buyer, placed.orderId)).paymentStatus).toBe("pending");
      expect((await paymentsOf(placed.orderId)).map((p) => p.state)).toEqual(["pending"]);
      // The provider retries the same event: now it is stored and delivered.
      expect(await deliverTestEvent(t.app, event)).toBe(200);
      expect(await eventCount()).toBe(stored + 1);
      expect((await getOrder(buyer, placed.orderId)).paymentStatus).toBe("mock_confirmed");
      expect(await licensesOf(placed.orderId)).toHaveLength(2);
    } finally {
      await t.db.execute(sql`drop trigger crash_licenses on licenses`);
      await t.db.execute(sql`drop function crash_licenses`);
      await t.db.execute(sql`drop sequence crash_calls`);
    }
  });
});

describe("reconciliation", () => {
  test("a payment whose event was lost is asked about and confirmed", async () => {
    const test = t.app.payments.test;
    if (!test) throw new Error("test mode expected");
    const placed = await place();
    test.controls.dropEvents = true;
    try {
      await choose(buyer, placed.redirectUrl, "pay");
    } finally {
      test.controls.dropEvents = false;
    }
    const deps = paymentDepsOf(t.app);
    // Too fresh to ask about yet.
    await reconcilePayments(deps, new Date());
    expect((await getOrder(buyer, placed.orderId)).paymentStatus).toBe("pending");
    const result = await reconcilePayments(deps, new Date(Date.now() + 6 * 60_000));
    expect(result.applied).toBeGreaterThanOrEqual(1);
    expect((await getOrder(buyer, placed.orderId)).paymentStatus).toBe("mock_confirmed");
    expect(await licensesOf(placed.orderId)).toHaveLength(2);
    expect(await confirmations(placed.orderId)).toBe(1);
  });

  test("a payment never made expires after PAYMENT_EXPIRY_MINUTES and fails its order", async () => {
    const placed = await place();
    const deps = paymentDepsOf(t.app);
    await reconcilePayments(deps, new Date(Date.now() + 30 * 60_000));
    expect((await getOrder(buyer, placed.orderId)).paymentStatus).toBe("pending");
    await reconcilePayments(deps, new Date(Date.now() + 61 * 60_000));
    expect((await getOrder(buyer, placed.orderId)).paymentStatus).toBe("failed");
    expect((await buyer.get(`/api/orders/${placed.orderId}/payment`)).json()).toMatchObject({
      payment: { state: "expired", reason: "expired" },
    });
    // A late payment still confirms: the money was taken.
    expect(await deliverTestEvent(t.app, paidEvent(testRef(placed.redirectUrl), placed.orderId))).toBe(200);
    expect((await getOrder(buyer, placed.orderId)).paymentStatus).toBe("mock_confirmed");
  });
});

describe("an order with no payment attempt (a crash between placing it and opening its payment)", () => {
  test("fails as expired after PAYMENT_EXPIRY_MINUTES, stops blocking account deletion, and can still be paid", async () => {
    const placed = await place();
    await t.db.delete(payments).where(eq(payments.orderId, placed.orderId));
    const deps = paymentDepsOf(t.app);
    await reconcilePayments(deps, new Date(Date.now() + 30 * 60_000));
    expect((await getOrder(buyer, placed.orderId)).paymentStatus).toBe("pending");
    const result = await reconcilePayments(deps, new Date(Date.now() + 61 * 60_000));
    expect((await getOrder(buyer, placed.orderId)).paymentStatus).toBe("failed");
    expect(result.ordersExpired).toBe(1);
    const [row] = await t.db.select().from(orders).where(eq(orders.id, placed.orderId));
    expect(await firstOpenOrder(t.db, row?.userId ?? "")).toBeNull();
    // Nothing is left for a second pass, and the buyer pays it by trying again.
    expect((await reconcilePayments(deps, new Date(Date.now() + 62 * 60_000))).ordersExpired).toBe(0);
    expect((await payOrder(t.app, buyer, placed.orderId)).paymentStatus).toBe("mock_confirmed");
  });
});

describe("only the order's buyer", () => {
  test("someone else's order answers 404 on the return, completion, retry and test page", async () => {
    const placed = await place();
    const id = placed.orderId;
    expect((await other.get(`/api/orders/${id}/payment`)).statusCode).toBe(404);
    expect((await other.post(`/api/orders/${id}/payment/complete`, { query: {} })).statusCode).toBe(404);
    expect((await other.post(`/api/orders/${id}/payment`)).statusCode).toBe(404);
    const ref = testRef(placed.redirectUrl);
    expect((await other.get(`/api/payments/test/sessions/${ref}`)).statusCode).toBe(404);
    expect(
      (await other.post(`/api/payments/test/sessions/${ref}/choice`, { choice: "pay" })).statusCode,
    ).toBe(404);
    expect((await getOrder(buyer, id)).paymentStatus).toBe("pending");
    expect(
      (await createClient(t.app).post(`/api/orders/${id}/payment/complete`, { query: {} })).statusCode,
    ).toBe(401);
  });
});

test("the payments config says which methods run in test mode", async () => {
  const res = await createClient(t.app).get("/api/payments/config");
  expect(res.json()).toEqual({
    testMode: true,
    methods: [
      { method: "stripe", provider: "test" },
      { method: "paypal", provider: "test" },
      { method: "apple-pay", provider: "test" },
      { method: "bank-transfer", provider: "test" },
    ],
  });
});
