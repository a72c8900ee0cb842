import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { commissions, licenses } from "#server/db/schema/after-sale";
import { user } from "#server/db/schema/auth";
import { products } from "#server/db/schema/catalog";
import { orders } from "#server/db/schema/orders";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import { REFERRAL_COOKIE } from "#server/modules/referrals/cookie";
import { deliver, settlementOf } from "#server/modules/settlement/service";
import { deliverTestEvent } from "#server/payments/test-provider";
import { createTestApp } from "#server/test/app";
import { createClient, signedInClient } from "#server/test/client";
import { orderBody } from "#server/test/orders";
import { readOutbox } from "#server/test/outbox";
import { choose, payOrder, returnToSite, testRef } from "#server/test/payments";

type Client = ReturnType<typeof createClient>;

let t: Awaited<ReturnType<typeof createTestApp>>;
let buyer: Client;
let admin: Client;
let resellerId = "";
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp({ seed: true });
  buyer = await signedInClient(t.app, "buyer@stackbay.test", DEMO_PASSWORD);
  admin = await signedInClient(t.app, "admin@stackbay.test", DEMO_PASSWORD);
  const [reseller] = await t.db
    .select({ id: user.id })
    .from(user)
    .where(eq(user.email, "reseller@stackbay.test"));
  resellerId = reseller?.id ?? "";
  const made = await t.db
    .insert(products)
    .values([
      {
        name: "Settle Suite",
        category: "software",
        price: "20",
        vendor: "Acme",
        isResellable: true,
        commissionRate: "0.1000",
      },
      { name: "Settle Board", category: "hardware", price: "40", vendor: "Acme" },
    ])
    .returning({ id: products.id, name: products.name });
  for (const product of made) ids[product.name] = product.id;
  // The buyer followed the reseller's link a minute ago, as the signed attribution cookie says.
  const clicked = `${resellerId}:${Date.now() - 60_000}`;
  buyer.jar.set(REFERRAL_COOKIE, encodeURIComponent(t.app.signCookie(clicked)));
});
afterAll(() => t.close());

const body = () =>
  orderBody({
    items: [
      { productId: ids["Settle Suite"] ?? "", quantity: 3, price: 20 },
      { productId: ids["Settle Board"] ?? "", price: 40 },
    ],
  });

/**
 * A checkout whose buyer was sent to pay and never came back (or whose process died before the
 * webhook): the order is written, pending, and not delivered. Each comes from another address with the
 * buyer's cookies, so checkout's per-address rate limit is not reached.
 */
async function unpaidCheckout(): Promise<{ id: string; body: ReturnType<typeof body>; redirectUrl: string }> {
  const sent = body();
  const tab = createClient(t.app);
  for (const [name, value] of buyer.jar) tab.jar.set(name, value);
  const res = await tab.post("/api/orders", sent);
  expect(res.statusCode).toBe(201);
  const [row] = await t.db.select().from(orders).where(eq(orders.idempotencyKey, sent.idempotencyKey));
  expect(row).toMatchObject({ paymentStatus: "pending", isPaid: false });
  return { id: row?.id ?? "", body: sent, redirectUrl: res.json().redirectUrl };
}

/** What an order delivered: license keys, commissions and confirmation e-mails. */
async function deliveries(orderId: string) {
  await t.app.jobs.idle();
  const [keys, earned, mails] = await Promise.all([
    t.db.select().from(licenses).where(eq(licenses.orderId, orderId)),
    t.db.select().from(commissions).where(eq(commissions.orderId, orderId)),
    readOutbox(t.dataDir),
  ]);
  const subject = `Your Stackbay order ${orderId.slice(0, 8)} is confirmed`;
  return {
    licenses: keys.length,
    commissions: earned.map((c) => ({ resellerId: c.resellerId, amount: Number(c.amount) })),
    mails: mails.filter((m) => m.subject === subject).length,
  };
}

/** Three license keys for the three seats, one 10% commission on them, one e-mail. */
const deliveredOnce = () => ({ licenses: 3, commissions: [{ resellerId, amount: 6 }], mails: 1 });

async function status(orderId: string) {
  const [row] = await t.db.select().from(orders).where(eq(orders.id, orderId));
  return { paymentStatus: row?.paymentStatus, isPaid: row?.isPaid };
}

describe("an order between the redirect and the payment's answer", () => {
  test("stays pending; paid later, it is delivered with the referral of the checkout", async () => {
    const { id } = await unpaidCheckout();
    expect(await deliveries(id)).toEqual({ licenses: 0, commissions: [], mails: 0 });

    // The payment comes without the cookie (another tab, cookie expired): the order kept the referral.
    const cookie = buyer.jar.get(REFERRAL_COOKIE) ?? "";
    buyer.jar.delete(REFERRAL_COOKIE);
    try {
      expect(await payOrder(t.app, buyer, id)).toMatchObject({
        id,
        paymentStatus: "mock_confirmed",
        isPaid: true,
      });
    } finally {
      buyer.jar.set(REFERRAL_COOKIE, cookie);
    }
    expect(await deliveries(id)).toEqual(deliveredOnce());
    expect(await payOrder(t.app, buyer, id)).toMatchObject({ id, paymentStatus: "mock_confirmed" });
    expect(await deliveries(id)).toEqual(deliveredOnce());
  });

  test("webhooks, the return page, an admin and deliveries racing on one order deliver it exactly once", async () => {
    const { id, redirectUrl } = await unpaidCheckout();
    const test = t.app.payments.test;
    if (!test) throw new Error("test mode expected");
    test.controls.dropEvents = true;
    try {
      await choose(buyer, redirectUrl, "pay");
    } finally {
      test.controls.dropEvents = false;
    }
    const event = (eventId: string) => ({
      id: eventId,
      type: "payment.succeeded" as const,
      data: { ref: testRef(redirectUrl), orderId: id, amountCents: 10_500, reason: null },
    });
    const s = settlementOf(t.app);
    const answers = await Promise.all([
      deliverTestEvent(t.app, event("evt_race_1")),
      deliverTestEvent(t.app, event("evt_race_1")),
      deliverTestEvent(t.app, event("evt_race_2")),
      returnToSite(buyer, id),
      admin.patch(`/api/admin/orders/${id}`, { paymentStatus: "mock_confirmed" }),
      deliver(s, id, "provider"),
      deliver(s, id, "admin"),
    ]);
    expect(answers.slice(0, 3)).toEqual([200, 200, 200]);
    expect(await status(id)).toEqual({ paymentStatus: "mock_confirmed", isPaid: true });
    expect(await deliveries(id)).toEqual(deliveredOnce());
  });
});

describe("admin status changes follow the order state machine", () => {
  test("an admin marking a pending order paid delivers it once, with its checkout's referral", async () => {
    const { id } = await unpaidCheckout();
    const res = await admin.patch(`/api/admin/orders/${id}`, { paymentStatus: "mock_confirmed" });
    expect(res.statusCode).toBe(200);
    expect(res.json().order).toMatchObject({ paymentStatus: "mock_confirmed", isPaid: true });
    expect(await deliveries(id)).toEqual(deliveredOnce());
    const again = await admin.patch(`/api/admin/orders/${id}`, { paymentStatus: "mock_confirmed" });
    expect(again.statusCode).toBe(200);
    expect(await deliveries(id)).toEqual(deliveredOnce());
  });

  test("allowed moves: pending → processing → failed; the paid flag follows the status", async () => {
    const { id } = await unpaidCheckout();
    const processing = await admin.patch(`/api/admin/orders/${id}`, {
      paymentStatus: "processing",
      isPaid: true,
    });
    expect(processing.statusCode).toBe(200);
    expect(processing.json().order).toMatchObject({ paymentStatus: "processing", isPaid: false });
    const failed = await admin.patch(`/api/admin/orders/${id}`, { paymentStatus: "failed" });
    expect(failed.json().order).toMatchObject({ paymentStatus: "failed", isPaid: false });
    expect(await deliveries(id)).toEqual({ licenses: 0, commissions: [], mails: 0 });
  });

  test.each([
    ["refunded", "failed", "A refunded order cannot be set to Failed."],
    ["refunded", "mock_confirmed", "A refunded order cannot be set to Confirmed."],
    ["partially_refunded", "pending", "A partially refunded order cannot be set to Pending."],
    ["mock_confirmed", "processing", "A confirmed order cannot be set to Processing."],
    ["mock_confirmed", "failed", "A confirmed order cannot be set to Failed."],
    [
      "failed",
      "mock_confirmed",
      "A failed order cannot be set to Confirmed by hand; only a payment confirmed by the payment provider does that.",
    ],
    ["processing", "pending", "A processing order cannot be set to Pending."],
  ] as const)("%s → %s is refused: %s", async (from, to, message) => {
    const { id } = await unpaidCheckout();
    await t.db.update(orders).set({ paymentStatus: from }).where(eq(orders.id, id));
    const res = await admin.patch(`/api/admin/orders/${id}`, { paymentStatus: to, isPaid: false });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ code: "INVALID_ORDER_TRANSITION", message });
    expect((await status(id)).paymentStatus).toBe(from);
    expect(await deliveries(id)).toEqual({ licenses: 0, commissions: [], mails: 0 });
  });

  test("a declined payment's retry succeeding confirms the failed order, once", async () => {
    const { id } = await unpaidCheckout();
    expect(await payOrder(t.app, buyer, id, "decline")).toMatchObject({
      paymentStatus: "failed",
      isPaid: false,
    });
    expect(await deliveries(id)).toEqual({ licenses: 0, commissions: [], mails: 0 });
    expect(await payOrder(t.app, buyer, id)).toMatchObject({ paymentStatus: "mock_confirmed" });
    expect(await deliveries(id)).toEqual(deliveredOnce());
  });
});
