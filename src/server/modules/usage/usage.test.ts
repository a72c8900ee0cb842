import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DAY_MS } from "#domain/dates";
import type { UsageBatchAnswer, UsageRecordInput, UsageSummary } from "#domain/metering";
import type { PlanList } from "#domain/plan-schemas";
import type { SellerApiKeyIssued } from "#domain/seller-api";
import type { Subscription } from "#domain/subscription-schemas";
import { licenses } from "#server/db/schema/after-sale";
import { user } from "#server/db/schema/auth";
import { products } from "#server/db/schema/catalog";
import { notifications } from "#server/db/schema/notifications";
import { orderItems, orders } from "#server/db/schema/orders";
import { sellerWebhookEvents } from "#server/db/schema/seller-api";
import { subscriptions, usagePeriods, usageRecords } from "#server/db/schema/subscriptions";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import type { AdjustableClock } from "#server/lib/clock";
import { paymentDepsOf } from "#server/modules/payments/service";
import { runRenewals } from "#server/modules/renewals/service";
import { createTestApp } from "#server/test/app";
import { type createClient, createVerifiedAccount, signedInClient } from "#server/test/client";
import { unbalancedEntries } from "#server/test/ledger";
import { placeAndPay } from "#server/test/orders";
import { choose, eventsDelivered } from "#server/test/payments";

type Client = ReturnType<typeof createClient>;

let t: Awaited<ReturnType<typeof createTestApp>>;
let clock: AdjustableClock;
let seller: Client;
let other: Client;
let buyer: Client;
let productId = "";
let planId = "";
let subscriptionId = "";
let key = "";
let readOnlyKey = "";
let otherKey = "";

/** $29 a month, then per call: the first 1,000 at $0.004, the next 9,000 at $0.003, the rest at $0.002. */
const tiers = [
  { upTo: 1000, unitPrice: "0.004" },
  { upTo: 10000, unitPrice: "0.003" },
  { upTo: null, unitPrice: "0.002" },
];

async function makeKey(client: Client, name: string, scopes: string[]) {
  const res = await client.post("/api/seller-api/keys", { name, scopes });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as SellerApiKeyIssued).secret;
}

let address = 0;
function callWith(secret: string, method: "GET" | "POST", url: string, payload?: unknown) {
  return t.app.inject({
    method,
    url,
    remoteAddress: `10.78.0.${++address % 250}`,
    headers: { authorization: `Bearer ${secret}` },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

let n = 0;
const record = (over: Partial<UsageRecordInput> = {}): UsageRecordInput => ({
  subscriptionId,
  quantity: 100,
  usedAt: clock.now().toISOString(),
  idempotencyKey: `rec-${++n}`,
  ...over,
});
const batch = async (records: UsageRecordInput[], secret = key) => {
  const res = await callWith(secret, "POST", "/api/seller/v1/usage/batch", { records });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as UsageBatchAnswer;
};
const summary = async () => {
  const res = await callWith(key, "GET", `/api/seller/v1/subscriptions/${subscriptionId}/usage`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as UsageSummary;
};
async function desk(): Promise<Subscription> {
  const res = await buyer.get("/api/subscriptions");
  const found = (res.json() as { items: Subscription[] }).items.find((s) => s.id === subscriptionId);
  if (!found) throw new Error("the metered subscription is not on the desk");
  return found;
}

beforeAll(async () => {
  t = await createTestApp({ seed: true });
  clock = t.app.clock as AdjustableClock;
  seller = await signedInClient(t.app, "seller@stackbay.test", DEMO_PASSWORD);
  const otherAccount = await createVerifiedAccount(t.app, t.dataDir, {
    email: "usage-other-seller@example.com",
    accountType: "seller",
  });
  other = await signedInClient(t.app, otherAccount.email, otherAccount.password);
  const person = await createVerifiedAccount(t.app, t.dataDir, { email: "usage-buyer@example.com" });
  buyer = await signedInClient(t.app, person.email, person.password);
  const [me] = await t.db.select({ id: user.id }).from(user).where(eq(user.email, "seller@stackbay.test"));
  const [made] = await t.db
    .insert(products)
    .values({
      name: "Metered Geocoder API",
      category: "saas",
      price: "29",
      pricingUnit: "month",
      vendor: "Geo",
      sellerId: me?.id ?? null,
    })
    .returning({ id: products.id });
  productId = made?.id ?? "";
  const plans = await seller.request("PUT", `/api/manage/products/${productId}/plans`, {
    plans: [{ name: "Pay as you go", interval: "month", price: 29, meter: { unit: "call", tiers } }],
  });
  expect(plans.statusCode, plans.body).toBe(200);
  const [plan] = (plans.json() as PlanList).plans;
  expect(plan).toMatchObject({ perSeat: false, minSeats: 1, maxSeats: 1, meter: { unit: "call", tiers } });
  planId = plan?.id ?? "";
  const order = await placeAndPay(t.app, buyer, { items: [{ productId, price: 29, planId }] });
  const [row] = await t.db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(eq(subscriptions.orderId, order.id));
  subscriptionId = row?.id ?? "";
  key = await makeKey(seller, "Metering", ["usage:write"]);
  readOnlyKey = await makeKey(seller, "Reader", ["orders:read"]);
  otherKey = await makeKey(other, "Theirs", ["usage:write"]);
});
afterAll(async () => {
  clock.reset();
  await t.close();
});

describe("metered plans", () => {
  test("a metered plan is monthly, one per subscriber, without a trial; the product page shows its tiers", async () => {
    const yearly = await seller.request("PUT", `/api/manage/products/${productId}/plans`, {
      plans: [
        { id: planId, name: "Pay as you go", interval: "year", price: 29, meter: { unit: "call", tiers } },
      ],
    });
    expect(yearly.statusCode).toBe(400);
    expect(yearly.body).toContain("A metered plan is billed monthly");
    const badTiers = await seller.request("PUT", `/api/manage/products/${productId}/plans`, {
      plans: [
        {
          id: planId,
          name: "Pay as you go",
          interval: "month",
          price: 29,
          meter: {
            unit: "call",
            tiers: [
              { upTo: 10, unitPrice: "0.004" },
              { upTo: 5, unitPrice: "0.003" },
            ],
          },
        },
      ],
    });
    expect(badTiers.statusCode).toBe(400);
    const page = await t.app.inject({ method: "GET", url: `/api/products/${productId}` });
    expect(page.json().plans[0].meter).toEqual({ unit: "call", tiers });
  });

  test("the subscription keeps the plan's terms of use and starts with an empty period", async () => {
    const mine = await desk();
    expect(mine.status).toBe("active");
    expect(mine.usage).toMatchObject({
      unit: "call",
      quantity: 0,
      usageAmount: "0.0000",
      cap: null,
      alerts: [],
    });
    expect(mine.usage?.estimate).toBe("29.0000");
  });
});

describe("usage reporting", () => {
  test("scopes and owners: no scope 403, another seller's subscription 404, a revoked key 401", async () => {
    const noScope = await callWith(readOnlyKey, "POST", "/api/seller/v1/usage", record());
    expect(noScope.statusCode).toBe(403);
    expect(noScope.json().code).toBe("API_KEY_SCOPE");
    const theirs = await callWith(otherKey, "POST", "/api/seller/v1/usage", record());
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json().code).toBe("USAGE_SUBSCRIPTION_NOT_FOUND");
    const summaryOfTheirs = await callWith(
      otherKey,
      "GET",
      `/api/seller/v1/subscriptions/${subscriptionId}/usage`,
    );
    expect(summaryOfTheirs.statusCode).toBe(404);
    const doomed = await makeKey(seller, "Doomed", ["usage:write"]);
    const { items } = (await seller.get("/api/seller-api/keys")).json() as {
      items: { id: string; name: string }[];
    };
    const doomedId = items.find((k) => k.name === "Doomed")?.id;
    expect((await seller.request("DELETE", `/api/seller-api/keys/${doomedId}`)).statusCode).toBe(200);
    expect((await callWith(doomed, "POST", "/api/seller/v1/usage", record())).statusCode).toBe(401);
    const bad = await callWith(key, "POST", "/api/seller/v1/usage", { ...record(), quantity: 1.5 });
    expect(bad.statusCode).toBe(400);
    const noReason = await callWith(key, "POST", "/api/seller/v1/usage", { ...record(), quantity: -5 });
    expect(noReason.statusCode).toBe(400);
    expect(
      await t.db.select().from(usageRecords).where(eq(usageRecords.subscriptionId, subscriptionId)),
    ).toHaveLength(0);
  });

  test("the same idempotency key counts once, in one batch, across batches and when sent at once", async () => {
    const first = record({ quantity: 300, idempotencyKey: "dup-1" });
    const answer = await batch([first, first, record({ quantity: 200 })]);
    expect(answer).toMatchObject({ recorded: 2, duplicates: 1, refused: 0 });
    expect(answer.results[1]?.id).toBe(answer.results[0]?.id);
    const again = await batch([first]);
    expect(again.results[0]).toMatchObject({ status: "duplicate", id: answer.results[0]?.id });
    const racing = record({ quantity: 50, idempotencyKey: "race-1" });
    const raced = await Promise.all(
      Array.from({ length: 6 }, () => callWith(key, "POST", "/api/seller/v1/usage", racing)),
    );
    expect(raced.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(raced.filter((r) => r.json().status === "recorded")).toHaveLength(1);
    expect((await summary()).quantity).toBe(550);
  });

  test("a license key names its subscription; a negative record corrects with a reason, never below zero", async () => {
    const [license] = await t.db
      .select({ key: licenses.key })
      .from(licenses)
      .innerJoin(subscriptions, eq(subscriptions.orderItemId, licenses.orderItemId))
      .where(eq(subscriptions.id, subscriptionId));
    const byKey = await batch([
      {
        quantity: 7,
        usedAt: clock.now().toISOString(),
        idempotencyKey: "by-key",
        licenseKey: license?.key.toLowerCase(),
      },
    ]);
    expect(byKey.recorded).toBe(1);
    expect((await summary()).quantity).toBe(557);
    await batch([record({ quantity: -7, reason: "Test call by key" })]);
    const correction = await batch([record({ quantity: -50, reason: "Retried calls counted twice" })]);
    expect(correction.recorded).toBe(1);
    expect((await summary()).quantity).toBe(500);
    const tooMuch = await batch([record({ quantity: 10 }), record({ quantity: -1000, reason: "Wrong" })]);
    expect(tooMuch.refused).toBe(2);
    expect(tooMuch.results[1]?.code).toBe("USAGE_CORRECTION_TOO_LARGE");
    expect((await summary()).quantity).toBe(500);
    // Nothing of a refused group stays behind, so its key can be sent again.
    const retried = await batch([record({ quantity: 10, idempotencyKey: `rec-${n - 1}` })]);
    expect(retried.recorded).toBe(1);
    expect((await summary()).quantity).toBe(510);
  });

  test("records out of their subscription's time are refused with a reason each", async () => {
    const now = clock.now().getTime();
    const answer = await batch([
      record({ usedAt: new Date(now + 60 * 60 * 1000).toISOString() }),
      record({ usedAt: new Date(now - 400 * DAY_MS).toISOString() }),
      record({ subscriptionId: "00000000-0000-4000-8000-000000000000" }),
    ]);
    expect(answer.results.map((r) => r.code)).toEqual([
      "USAGE_OUT_OF_PERIOD",
      "USAGE_OUT_OF_PERIOD",
      "USAGE_SUBSCRIPTION_NOT_FOUND",
    ]);
    const one = await callWith(
      key,
      "POST",
      "/api/seller/v1/usage",
      record({ quantity: 5, usedAt: new Date(now + 3600e3).toISOString() }),
    );
    expect(one.statusCode).toBe(400);
    expect(one.json().code).toBe("USAGE_OUT_OF_PERIOD");
  });

  test("a batch of 1,000 is taken; 1,001 is refused whole", async () => {
    const before = (await summary()).quantity;
    const thousand = Array.from({ length: 1000 }, () => record({ quantity: 1 }));
    const answer = await batch(thousand);
    expect(answer.recorded).toBe(1000);
    expect((await summary()).quantity).toBe(before + 1000);
    const tooMany = await callWith(key, "POST", "/api/seller/v1/usage/batch", {
      records: [...thousand, record()],
    });
    expect(tooMany.statusCode).toBe(400);
  });
});

describe("spending caps", () => {
  test("alerts at 50%, 80% and 100% fire once each, also under concurrent reports; raising the cap re-arms them", async () => {
    // The seller listens for the cap being reached.
    const endpoint = await seller.post("/api/seller-webhooks/endpoints", {
      url: "http://127.0.0.1:9/usage-hook",
      events: ["usage.cap_reached"],
    });
    expect(endpoint.statusCode, endpoint.body).toBe(201);
    const capEvents = async () =>
      t.db.select().from(sellerWebhookEvents).where(eq(sellerWebhookEvents.type, "usage.cap_reached"));
    // 1,510 calls so far: $4 + $1.53 = $5.53. A $10 cap has passed 50%.
    const capped = await buyer.request("PUT", `/api/subscriptions/${subscriptionId}/spending-cap`, {
      cap: "10",
    });
    expect(capped.statusCode, capped.body).toBe(200);
    expect((capped.json() as { subscription: Subscription }).subscription.usage).toMatchObject({
      usageAmount: "5.5300",
      alerts: [50],
      overCap: false,
    });
    const alerts = async () =>
      (await t.db.select().from(notifications).where(eq(notifications.kind, "usage_alert"))).map(
        (n) => n.title,
      );
    expect(await alerts()).toEqual([]);
    // Ten reports at once of 100 calls each ($0.30): from $5.53 to $8.53 passes 80% exactly once.
    await Promise.all(Array.from({ length: 10 }, () => batch([record({ quantity: 100 })])));
    expect(await alerts()).toEqual(["Metered Geocoder API used 80% of your spending cap"]);
    await batch([record({ quantity: 600 })]);
    expect(await alerts()).toHaveLength(2);
    expect((await alerts())[1]).toBe("Metered Geocoder API reached your spending cap");
    const [reachedEvent] = await capEvents();
    expect(reachedEvent?.data).toMatchObject({ subscriptionId, unit: "call", cap: "10.0000" });
    await batch([record({ quantity: 600 })]);
    expect(await alerts()).toHaveLength(2);
    expect(await capEvents()).toHaveLength(1);
    expect((await desk()).usage).toMatchObject({ overCap: true, alerts: [50, 80, 100] });
    // The seller's software, checking the key, is told to stop or slow down.
    const [license] = await t.db
      .select({ key: licenses.key })
      .from(licenses)
      .innerJoin(subscriptions, eq(subscriptions.orderItemId, licenses.orderItemId))
      .where(eq(subscriptions.id, subscriptionId));
    const check = () =>
      t.app.inject({ method: "POST", url: "/api/licenses/validate", payload: { key: license?.key ?? "" } });
    expect((await check()).json()).toMatchObject({ valid: false, status: "over_cap" });
    // Raised to $20: the use ($12.13) is past 50% of it again but not 80%.
    const raised = await buyer.request("PUT", `/api/subscriptions/${subscriptionId}/spending-cap`, {
      cap: "20",
    });
    expect((raised.json() as { subscription: Subscription }).subscription.usage).toMatchObject({
      overCap: false,
      alerts: [50],
    });
    expect((await check()).json()).toMatchObject({ valid: true, status: "active" });
    const invalid = await buyer.request("PUT", `/api/subscriptions/${subscriptionId}/spending-cap`, {
      cap: "0.5",
    });
    expect(invalid.statusCode).toBe(400);
    const theirs = await seller.request("PUT", `/api/subscriptions/${subscriptionId}/spending-cap`, {
      cap: "20",
    });
    expect(theirs.statusCode).toBe(404);
  });
});

describe("the period's use is invoiced in arrears", () => {
  test("late records within the hour count in their period; the renewal rates it to the cent, once, and later records are refused", async () => {
    const before = await desk();
    const periodEnd = new Date(before.paidThrough);
    const usedBefore = (await summary()).quantity;
    clock.advance(periodEnd.getTime() - clock.now().getTime() + 10 * 60 * 1000);
    // Ten minutes after the period's end: still past its end, inside the grace; the subscription is not past due yet.
    expect((await desk()).status).toBe("active");
    const late = await batch([
      record({ quantity: 40, usedAt: new Date(periodEnd.getTime() - 1000).toISOString() }),
    ]);
    expect(late.recorded).toBe(1);
    await runRenewals(paymentDepsOf(t.app), clock.now());
    const [notYet] = await t.db
      .select({ ratedAt: usagePeriods.ratedAt })
      .from(usagePeriods)
      .where(and(eq(usagePeriods.subscriptionId, subscriptionId), eq(usagePeriods.periodIndex, 0)));
    expect(notYet?.ratedAt).toBeNull();
    clock.advance(55 * 60 * 1000);
    const run = await runRenewals(paymentDepsOf(t.app), clock.now());
    expect(run.invoiced).toBe(1);
    await runRenewals(paymentDepsOf(t.app), clock.now());
    const quantity = usedBefore + 40;
    // 1,000 at $0.004 = $4; the rest at $0.003.
    const expected = (4 + (quantity - 1000) * 0.003).toFixed(2);
    const lines = await t.db
      .select({ name: orderItems.productName, price: orderItems.price, orderId: orderItems.orderId })
      .from(orderItems)
      .innerJoin(orders, eq(orders.id, orderItems.orderId))
      .where(eq(orders.idempotencyKey, `renewal:${subscriptionId}:1`));
    expect(lines).toHaveLength(2);
    const usageLineOf = lines.find((l) => l.name.includes("Usage:"));
    expect(usageLineOf?.name).toContain(`${quantity.toLocaleString("en-US")} calls`);
    expect(Number(usageLineOf?.price).toFixed(2)).toBe(expected);
    const tooLate = await batch([
      record({ quantity: 5, usedAt: new Date(periodEnd.getTime() - 1000).toISOString() }),
    ]);
    expect(tooLate.results[0]?.code).toBe("USAGE_TOO_LATE");
    // The new period starts empty, with the cap's alerts to come again.
    expect((await desk()).usage).toMatchObject({ quantity: 0, alerts: [] });
    // Paid like any renewal: the subscription runs on, and the ledger balances.
    const orderId = usageLineOf?.orderId ?? "";
    const pay = await buyer.post(`/api/orders/${orderId}/payment`);
    expect(pay.statusCode).toBe(200);
    await choose(buyer, (pay.json() as { redirectUrl: string }).redirectUrl, "pay");
    await eventsDelivered(t.app);
    const after = await desk();
    expect(after.status).toBe("active");
    expect(new Date(after.paidThrough).getTime()).toBeGreaterThan(periodEnd.getTime());
    expect(await unbalancedEntries(t.db)).toEqual([]);
  });
});
