import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ProductDetail, ProductList } from "#domain/catalog-schemas";
import type { UsageBatchAnswer } from "#domain/metering";
import { computeTotals } from "#domain/money";
import type { PlanList } from "#domain/plan-schemas";
import type { ManagedProductList } from "#domain/product-admin";
import type { SellerApiKeyIssued } from "#domain/seller-api";
import type { Subscription } from "#domain/subscription-schemas";
import { USAGE_GRACE_MS } from "#domain/subscriptions";
import { user } from "#server/db/schema/auth";
import { products } from "#server/db/schema/catalog";
import { orderItems, orders } from "#server/db/schema/orders";
import { payments } from "#server/db/schema/payments";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import type { AdjustableClock } from "#server/lib/clock";
import { paymentDepsOf } from "#server/modules/payments/service";
import { runRenewals } from "#server/modules/renewals/service";
import { createTestApp } from "#server/test/app";
import { type createClient, createVerifiedAccount, signedInClient } from "#server/test/client";
import { unbalancedEntries } from "#server/test/ledger";
import { placeOrder } from "#server/test/orders";
import { saveTestMethod } from "#server/test/payments";

/**
 * A metered plan without a monthly fee (pay as you go, decision 0029): allowed only with a meter, listed
 * by its unit price, bought with nothing due today on a saved card, and renewed for its use alone: a
 * month without use is settled at $0 without a charge, and the subscription runs on.
 */

type Client = ReturnType<typeof createClient>;

let t: Awaited<ReturnType<typeof createTestApp>>;
let clock: AdjustableClock;
let seller: Client;
let productId = "";
let planId = "";
let key = "";

const NAME = "Payg Geocoder";
/** Per call: the first 1,000 at $0.004, the rest at $0.003; no fee. */
const tiers = [
  { upTo: 1000, unitPrice: "0.004" },
  { upTo: null, unitPrice: "0.003" },
];

beforeAll(async () => {
  t = await createTestApp({ seed: true });
  clock = t.app.clock as AdjustableClock;
  seller = await signedInClient(t.app, "seller@stackbay.test", DEMO_PASSWORD);
  const [me] = await t.db.select({ id: user.id }).from(user).where(eq(user.email, "seller@stackbay.test"));
  const [made] = await t.db
    .insert(products)
    .values({
      name: NAME,
      category: "saas",
      price: "29",
      pricingUnit: "month",
      vendor: "Geo",
      sellerId: me?.id,
    })
    .returning({ id: products.id });
  productId = made?.id ?? "";
  const issued = await seller.post("/api/seller-api/keys", { name: "Payg", scopes: ["usage:write"] });
  expect(issued.statusCode, issued.body).toBe(201);
  key = (issued.json() as SellerApiKeyIssued).secret;
});
afterAll(async () => {
  clock.reset();
  await t.close();
});

const putPlans = (plans: unknown[]) =>
  seller.request("PUT", `/api/manage/products/${productId}/plans`, { plans });

let n = 0;
async function report(subscriptionId: string, quantity: number, usedAt: Date) {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/seller/v1/usage/batch",
    remoteAddress: `10.81.0.${++n % 250}`,
    headers: { authorization: `Bearer ${key}` },
    payload: {
      records: [{ subscriptionId, quantity, usedAt: usedAt.toISOString(), idempotencyKey: `payg-${n}` }],
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as UsageBatchAnswer;
}

async function deskOf(client: Client, orderId: string): Promise<Subscription> {
  const res = await client.get("/api/subscriptions");
  const found = (res.json() as { items: Subscription[] }).items.find((s) => s.orderId === orderId);
  if (!found) throw new Error(`no subscription from order ${orderId}`);
  return found;
}

const renew = async () => {
  const run = await runRenewals(paymentDepsOf(t.app), clock.now());
  await t.app.jobs.idle();
  return run;
};
function moveTo(at: Date) {
  const ms = at.getTime() - clock.now().getTime();
  if (ms > 0) clock.advance(ms);
}
const renewalOf = async (subscriptionId: string, period: number) => {
  const [order] = await t.db
    .select()
    .from(orders)
    .where(eq(orders.idempotencyKey, `renewal:${subscriptionId}:${period}`));
  if (!order) throw new Error(`no renewal ${period} of ${subscriptionId}`);
  const lines = await t.db.select().from(orderItems).where(eq(orderItems.orderId, order.id));
  const attempts = await t.db.select().from(payments).where(eq(payments.orderId, order.id));
  return { order, lines, attempts };
};

describe("a plan priced by use alone", () => {
  test("a $0 fee is refused without a meter and taken with one; the listing shows its unit price, not $0 a month", async () => {
    const free = await putPlans([{ name: "Free", interval: "month", price: 0 }]);
    expect(free.statusCode).toBe(400);
    expect(JSON.stringify(free.json())).toContain("unless the plan is metered");

    const res = await putPlans([
      { name: "Pay as you go", interval: "month", price: 0, meter: { unit: "call", tiers } },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    planId = (res.json() as PlanList).plans[0]?.id ?? "";
    expect((res.json() as PlanList).plans[0]).toMatchObject({ price: "0.00", meter: { unit: "call" } });

    // The listed price follows the first plan, still by the month (not sold by quantity), with its meter.
    const [row] = await t.db.select().from(products).where(eq(products.id, productId));
    expect(row).toMatchObject({ price: "0.0000", pricingUnit: "month" });
    const payg = { unit: "call", unitPrice: "0.0030", tiered: true };
    const detail = (await seller.get(`/api/products/${productId}`)).json() as ProductDetail;
    expect(detail.payAsYouGo).toEqual(payg);
    const list = (await seller.get(`/api/products?search=${encodeURIComponent(NAME)}`)).json() as ProductList;
    expect(list.items.find((p) => p.id === productId)?.payAsYouGo).toEqual(payg);
    const mine = (
      await seller.get(`/api/manage/products?search=${encodeURIComponent(NAME)}`)
    ).json() as ManagedProductList;
    expect(mine.items.find((p) => p.id === productId)?.payAsYouGo).toEqual(payg);
    // Any other product lists its price as before.
    expect(list.items.filter((p) => p.id !== productId).every((p) => p.payAsYouGo === null)).toBe(true);
  });

  test("checkout has nothing due, needs a saved card as a trial does, and delivers the subscription at once", async () => {
    const email = "payg-buyer@stackbay.test";
    const { password } = await createVerifiedAccount(t.app, t.dataDir, { email, firstName: "Pat" });
    const buyer = await signedInClient(t.app, email, password);
    const items = [{ productId, price: 0, planId }];

    const noCard = await buyer.post("/api/orders", {
      fullName: "Pat Buyer",
      email,
      address: "12 Harbour Street",
      city: "Dubai",
      country: "United Arab Emirates",
      paymentMethod: "stripe",
      currency: "USD",
      idempotencyKey: crypto.randomUUID(),
      items: [{ productId, quantity: 1, price: 0, planId }],
    });
    expect(noCard.statusCode, noCard.body).toBe(400);
    expect(noCard.json()).toMatchObject({ code: "TRIAL_NEEDS_CARD" });

    const card = await saveTestMethod(t.app, buyer, { card: "4242" });
    const { orderId } = await placeOrder(buyer, { email, items, savedMethodId: card.id });
    const [order] = await t.db.select().from(orders).where(eq(orders.id, orderId));
    expect(order).toMatchObject({ totalAmount: "0.0000", isPaid: true, paymentStatus: "mock_confirmed" });
    expect(await t.db.select().from(payments).where(eq(payments.orderId, orderId))).toEqual([]);
    const sub = await deskOf(buyer, orderId);
    expect(sub).toMatchObject({
      status: "active",
      unitPrice: "0.0000",
      usage: { quantity: 0, unit: "call" },
    });
    expect(await unbalancedEntries(t.db)).toEqual([]);

    // A month with use: the renewal bills the use alone (a $0 fee line and the usage), charged on the card.
    const end = new Date(sub.paidThrough);
    expect((await report(sub.id, 1500, clock.now())).recorded).toBe(1);
    moveTo(new Date(end.getTime() + USAGE_GRACE_MS + 60_000));
    await renew();
    await renew();
    const first = await renewalOf(sub.id, 1);
    // 1,000 at $0.004 and 500 at $0.003: $5.50, taxed at the first order's rate.
    const totals = computeTotals(
      [
        { price: "0", quantity: 1 },
        { price: "5.5", quantity: 1 },
      ],
      order?.taxRate ?? "0",
    );
    expect(first.order).toMatchObject({ totalAmount: totals.total, tax: totals.tax, isPaid: true });
    expect(first.lines.map((l) => Number(l.price)).sort()).toEqual([0, 5.5]);
    expect(first.attempts).toEqual([expect.objectContaining({ state: "paid" })]);
    const renewed = await deskOf(buyer, orderId);
    expect(new Date(renewed.paidThrough).getTime()).toBeGreaterThan(end.getTime());
    expect(await unbalancedEntries(t.db)).toEqual([]);

    // A month without use: settled at $0 at once, without asking a provider, and the period goes on.
    const next = new Date(renewed.paidThrough);
    moveTo(new Date(next.getTime() + USAGE_GRACE_MS + 60_000));
    const run = await renew();
    expect(run.invoiced).toBe(1);
    const second = await renewalOf(sub.id, 2);
    expect(second.order).toMatchObject({
      totalAmount: "0.0000",
      isPaid: true,
      paymentStatus: "mock_confirmed",
    });
    expect(second.attempts).toEqual([]);
    const after = await deskOf(buyer, orderId);
    expect(after.status).toBe("active");
    expect(new Date(after.paidThrough).getTime()).toBeGreaterThan(next.getTime());
    expect(after.due).toBeNull();
    expect(await unbalancedEntries(t.db)).toEqual([]);
  });
});
