import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { commissions, licenses } from "#server/db/schema/after-sale";
import { user } from "#server/db/schema/auth";
import { products } from "#server/db/schema/catalog";
import { orders } from "#server/db/schema/orders";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import type { Charge, ChargeResult } from "#server/modules/orders/payments";
import { deliver } from "#server/modules/orders/settlement";
import { settlementOf, sweepOrders } from "#server/modules/orders/sweeper";
import { REFERRAL_COOKIE } from "#server/modules/referrals/cookie";
import { createTestApp } from "#server/test/app";
import { createClient, signedInClient } from "#server/test/client";
import { readOutbox } from "#server/test/outbox";

type Client = ReturnType<typeof createClient>;

/**
 * The payment provider of these tests. `crash` throws, as if the process died during the charge: the
 * order stays pending exactly as an interrupted checkout leaves it. `refused` lists orders it declines.
 */
const provider = {
  crash: false,
  refused: new Set<string>(),
  charges: [] as Charge[],
};

let t: Awaited<ReturnType<typeof createTestApp>>;
let buyer: Client;
let admin: Client;
let resellerId = "";
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp({
    seed: true,
    payments: {
      name: "test",
      async charge(charge): Promise<ChargeResult> {
        provider.charges.push(charge);
        if (provider.crash) throw new Error("connection reset while charging");
        if (provider.refused.has(charge.orderId)) return { ok: false, reason: "card declined" };
        return { ok: true, reference: `test_${charge.reference}` };
      },
    },
  });
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

const body = () => ({
  fullName: "Bianca Buyer",
  email: "buyer@stackbay.test",
  address: "12 Harbour Street",
  city: "Dubai",
  country: "United Arab Emirates",
  paymentMethod: "stripe",
  items: [
    { productId: ids["Settle Suite"], quantity: 3, price: 20 },
    { productId: ids["Settle Board"], quantity: 1, price: 40 },
  ],
  currency: "USD",
  idempotencyKey: randomUUID(),
});

/**
 * A checkout that dies during the payment: the order is written, pending, and never settled. Each comes
 * from another address with the buyer's cookies, so checkout's per-address rate limit is not reached.
 */
async function interruptedCheckout(): Promise<{ id: string; body: ReturnType<typeof body> }> {
  const sent = body();
  const tab = createClient(t.app);
  for (const [name, value] of buyer.jar) tab.jar.set(name, value);
  provider.crash = true;
  try {
    const res = await tab.post("/api/orders", sent);
    expect(res.statusCode).toBe(500);
  } finally {
    provider.crash = false;
  }
  const [row] = await t.db.select().from(orders).where(eq(orders.idempotencyKey, sent.idempotencyKey));
  expect(row).toMatchObject({ paymentStatus: "pending", isPaid: false });
  return { id: row?.id ?? "", body: sent };
}

/** What an order delivered: licence keys, commissions and confirmation e-mails. */
async function deliveries(orderId: string) {
  await t.app.jobs.idle();
  const [keys, earned, mails] = await Promise.all([
    t.db.select().from(licenses).where(eq(licenses.orderId, orderId)),
    t.db.select().from(commissions).where(eq(commissions.orderId, orderId)),
    readOutbox(t.dataDir),
  ]);
  const subject = `Your Stackbay order ${orderId.slice(0, 8)} is confirmed`;
  return {
    licences: keys.length,
    commissions: earned.map((c) => ({ resellerId: c.resellerId, amount: Number(c.amount) })),
    mails: mails.filter((m) => m.subject === subject).length,
  };
}

/** Three licence keys for the three seats, one 10% commission on them, one e-mail. */
const deliveredOnce = () => ({ licences: 3, commissions: [{ resellerId, amount: 6 }], mails: 1 });

async function status(orderId: string) {
  const [row] = await t.db.select().from(orders).where(eq(orders.id, orderId));
  return { paymentStatus: row?.paymentStatus, isPaid: row?.isPaid };
}

describe("an order interrupted between its insert and its payment", () => {
  test("retrying with the same key charges it and delivers it, with the referral of the checkout", async () => {
    const { id, body: sent } = await interruptedCheckout();
    expect(await deliveries(id)).toEqual({ licences: 0, commissions: [], mails: 0 });

    // The retry comes without the cookie (another tab, cookie expired): the order kept the referral.
    const cookie = buyer.jar.get(REFERRAL_COOKIE) ?? "";
    buyer.jar.delete(REFERRAL_COOKIE);
    try {
      const retried = await buyer.post("/api/orders", sent);
      expect(retried.statusCode).toBe(200);
      expect(retried.json().order).toMatchObject({ id, paymentStatus: "mock_confirmed", isPaid: true });
    } finally {
      buyer.jar.set(REFERRAL_COOKIE, cookie);
    }
    expect(await deliveries(id)).toEqual(deliveredOnce());
    // Both charges named the order as the provider's idempotency reference.
    expect(provider.charges.filter((c) => c.orderId === id).map((c) => c.reference)).toEqual([id, id]);

    const again = await buyer.post("/api/orders", sent);
    expect(again.json().order).toMatchObject({ id, paymentStatus: "mock_confirmed" });
    expect(await deliveries(id)).toEqual(deliveredOnce());
  });

  test("retries, an admin and the sweeper racing on one order deliver it exactly once", async () => {
    const { id, body: sent } = await interruptedCheckout();
    const s = settlementOf(t.app);
    // The crash was ten minutes ago, so the sweeper picks the order up too.
    await t.db
      .update(orders)
      .set({ updatedAt: new Date(Date.now() - 10 * 60_000) })
      .where(eq(orders.id, id));
    const answers = await Promise.all([
      buyer.post("/api/orders", sent),
      buyer.post("/api/orders", sent),
      admin.patch(`/api/admin/orders/${id}`, { paymentStatus: "mock_confirmed" }),
      sweepOrders(s, new Date(), 5 * 60_000),
      deliver(s, id, "sweeper"),
      deliver(s, id, "admin"),
    ]);
    for (const res of answers.slice(0, 3)) {
      expect((res as { statusCode: number }).statusCode).toBe(200);
    }
    expect(await status(id)).toEqual({ paymentStatus: "mock_confirmed", isPaid: true });
    expect(await deliveries(id)).toEqual(deliveredOnce());
  });
});

describe("the sweeper", () => {
  test("settles orders pending for too long, fails those the provider refuses, leaves fresh ones", async () => {
    const stale = await interruptedCheckout();
    const declined = await interruptedCheckout();
    const fresh = await interruptedCheckout();
    provider.refused.add(declined.id);
    const now = new Date(Date.now() + 10 * 60_000);
    // The fresh one's checkout began a minute before the sweep: it may still be paying.
    await t.db
      .update(orders)
      .set({ updatedAt: new Date(now.getTime() - 60_000) })
      .where(eq(orders.id, fresh.id));

    const result = await sweepOrders(settlementOf(t.app), now, 5 * 60_000);
    expect(result).toMatchObject({ failed: 1, retried: 0 });
    expect(await status(stale.id)).toEqual({ paymentStatus: "mock_confirmed", isPaid: true });
    expect(await deliveries(stale.id)).toEqual(deliveredOnce());
    expect(await status(declined.id)).toEqual({ paymentStatus: "failed", isPaid: false });
    expect(await deliveries(declined.id)).toEqual({ licences: 0, commissions: [], mails: 0 });
    expect(await status(fresh.id)).toEqual({ paymentStatus: "pending", isPaid: false });

    // A second pass finds nothing left to do for them.
    const charged = provider.charges.length;
    await sweepOrders(settlementOf(t.app), now, 5 * 60_000);
    expect(provider.charges.length).toBe(charged);
    expect(await deliveries(stale.id)).toEqual(deliveredOnce());
  });

  test("a provider it cannot reach leaves the order pending for the next pass", async () => {
    const { id } = await interruptedCheckout();
    const now = new Date(Date.now() + 10 * 60_000);
    provider.crash = true;
    try {
      expect(await sweepOrders(settlementOf(t.app), now, 5 * 60_000)).toMatchObject({ retried: 1 });
    } finally {
      provider.crash = false;
    }
    expect(await status(id)).toEqual({ paymentStatus: "pending", isPaid: false });
    // Claimed at `now`: not again until the threshold has passed once more.
    expect(await sweepOrders(settlementOf(t.app), now, 5 * 60_000)).toMatchObject({ confirmed: 0 });
    const later = new Date(now.getTime() + 6 * 60_000);
    await sweepOrders(settlementOf(t.app), later, 5 * 60_000);
    expect(await status(id)).toEqual({ paymentStatus: "mock_confirmed", isPaid: true });
    expect(await deliveries(id)).toEqual(deliveredOnce());
  });
});

describe("admin status changes follow the order state machine", () => {
  test("an admin marking a pending order paid delivers it once, with its checkout's referral", async () => {
    const { id } = await interruptedCheckout();
    const res = await admin.patch(`/api/admin/orders/${id}`, { paymentStatus: "mock_confirmed" });
    expect(res.statusCode).toBe(200);
    expect(res.json().order).toMatchObject({ paymentStatus: "mock_confirmed", isPaid: true });
    expect(await deliveries(id)).toEqual(deliveredOnce());
    const again = await admin.patch(`/api/admin/orders/${id}`, { paymentStatus: "mock_confirmed" });
    expect(again.statusCode).toBe(200);
    expect(await deliveries(id)).toEqual(deliveredOnce());
  });

  test("allowed moves: pending → processing → failed; the paid flag follows the status", async () => {
    const { id } = await interruptedCheckout();
    const processing = await admin.patch(`/api/admin/orders/${id}`, {
      paymentStatus: "processing",
      isPaid: true,
    });
    expect(processing.statusCode).toBe(200);
    expect(processing.json().order).toMatchObject({ paymentStatus: "processing", isPaid: false });
    const failed = await admin.patch(`/api/admin/orders/${id}`, { paymentStatus: "failed" });
    expect(failed.json().order).toMatchObject({ paymentStatus: "failed", isPaid: false });
    expect(await deliveries(id)).toEqual({ licences: 0, commissions: [], mails: 0 });
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
      "A failed order cannot be set to Confirmed by hand; the buyer pays by placing the order again.",
    ],
    ["processing", "pending", "A processing order cannot be set to Pending."],
  ] as const)("%s → %s is refused: %s", async (from, to, message) => {
    const { id } = await interruptedCheckout();
    await t.db.update(orders).set({ paymentStatus: from }).where(eq(orders.id, id));
    const res = await admin.patch(`/api/admin/orders/${id}`, { paymentStatus: to, isPaid: false });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ code: "INVALID_ORDER_TRANSITION", message });
    expect((await status(id)).paymentStatus).toBe(from);
    expect(await deliveries(id)).toEqual({ licences: 0, commissions: [], mails: 0 });
  });

  test("a refused payment's retry succeeding confirms the failed order; the buyer cannot un-confirm", async () => {
    const { id, body: sent } = await interruptedCheckout();
    provider.refused.add(id);
    expect((await buyer.post("/api/orders", sent)).statusCode).toBe(402);
    expect(await status(id)).toEqual({ paymentStatus: "failed", isPaid: false });
    provider.refused.delete(id);
    expect((await buyer.post("/api/orders", sent)).json().order).toMatchObject({
      paymentStatus: "mock_confirmed",
    });
    expect(await deliveries(id)).toEqual(deliveredOnce());
  });
});
