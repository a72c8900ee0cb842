import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ProductDetail } from "#domain/catalog-schemas";
import { DAY_MS } from "#domain/dates";
import type { PlanList, PlansInput } from "#domain/plan-schemas";
import type { Subscription } from "#domain/subscription-schemas";
import { addIntervals, firstRenewalAtNewPrice, RENEWAL_INVOICE_LEAD_DAYS } from "#domain/subscriptions";
import { user } from "#server/db/schema/auth";
import { products } from "#server/db/schema/catalog";
import { journalEntries } from "#server/db/schema/ledger";
import { orderItems, orders } from "#server/db/schema/orders";
import { subscriptions } from "#server/db/schema/subscriptions";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import type { AdjustableClock } from "#server/lib/clock";
import { paymentDepsOf } from "#server/modules/payments/service";
import { anonymiseTrials } from "#server/modules/privacy/service";
import { runRenewals } from "#server/modules/renewals/service";
import { createTestApp } from "#server/test/app";
import { type createClient, createVerifiedAccount, signedInClient } from "#server/test/client";
import { orderBody, placeAndPay, placeOrder } from "#server/test/orders";
import { readOutbox } from "#server/test/outbox";
import { choose, eventsDelivered, getOrder } from "#server/test/payments";

type Client = ReturnType<typeof createClient>;

let t: Awaited<ReturnType<typeof createTestApp>>;
let clock: AdjustableClock;
let seller: Client;
let otherSeller: Client;
let admin: Client;
let buyer: Client;
const ids: Record<string, string> = {};
const trialOrderIdOf = { converted: "" };

beforeAll(async () => {
  t = await createTestApp({ seed: true });
  clock = t.app.clock as AdjustableClock;
  seller = await signedInClient(t.app, "seller@stackbay.test", DEMO_PASSWORD);
  admin = await signedInClient(t.app, "admin@stackbay.test", DEMO_PASSWORD);
  const other = await createVerifiedAccount(t.app, t.dataDir, {
    email: "other-seller@example.com",
    accountType: "seller",
  });
  otherSeller = await signedInClient(t.app, other.email, other.password);
  const person = await createVerifiedAccount(t.app, t.dataDir, { email: "plan-buyer@example.com" });
  buyer = await signedInClient(t.app, person.email, person.password);
  const [me] = await t.db.select({ id: user.id }).from(user).where(eq(user.email, "seller@stackbay.test"));
  const made = await t.db
    .insert(products)
    .values(
      (
        [
          ["Plan CRM", "saas", "20", "user_month"],
          ["Plan Boxed", "software", "49", "one_time"],
          ["Plan Router", "hardware", "300", "one_time"],
        ] as const
      ).map(([name, category, price, pricingUnit]) => ({
        name,
        category,
        price,
        pricingUnit,
        vendor: "Plans",
        sellerId: me?.id ?? null,
      })),
    )
    .returning({ id: products.id, name: products.name });
  for (const row of made) ids[row.name] = row.id;
});
afterAll(async () => {
  clock.reset();
  await t.close();
});

const plansUrl = (name: string) => `/api/manage/products/${ids[name]}/plans`;
const monthly = {
  name: "Monthly",
  interval: "month",
  price: 20,
  perSeat: true,
  minSeats: 2,
  maxSeats: 50,
  trialDays: 14,
} as const;
const yearly = {
  name: "Yearly",
  interval: "year",
  price: 200,
  perSeat: true,
  minSeats: 2,
  maxSeats: 50,
  trialDays: 0,
} as const;

async function putPlans(client: Client, name: string, body: PlansInput, status = 200) {
  const res = await client.request("PUT", plansUrl(name), body);
  expect(res.statusCode, res.body).toBe(status);
  return res.json();
}
async function detail(name: string): Promise<ProductDetail> {
  const res = await buyer.get(`/api/products/${ids[name]}`);
  expect(res.statusCode).toBe(200);
  return res.json() as ProductDetail;
}
async function desk(client: Client): Promise<Subscription[]> {
  const res = await client.get("/api/subscriptions");
  expect(res.statusCode).toBe(200);
  return (res.json() as { items: Subscription[] }).items;
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
async function pay(client: Client, orderId: string) {
  const res = await client.post(`/api/orders/${orderId}/payment`);
  expect(res.statusCode).toBe(200);
  await choose(client, (res.json() as { redirectUrl: string }).redirectUrl, "pay");
  await eventsDelivered(t.app);
}
const mailsTo = async (to: string, subject: string) =>
  (await readOutbox(t.dataDir)).filter((m) => m.to.includes(to) && m.subject.includes(subject));

describe("plans: set by the product's seller or an admin", () => {
  test("a seller sets monthly and yearly plans; the first is the listed price, and buyers see both", async () => {
    const saved = (await putPlans(seller, "Plan CRM", { plans: [monthly, yearly] })) as PlanList;
    expect(saved.plans.map((p) => [p.name, p.interval, p.price, p.trialDays, p.subscribers])).toEqual([
      ["Monthly", "month", "20.00", 14, 0],
      ["Yearly", "year", "200.00", 0, 0],
    ]);
    const shown = await detail("Plan CRM");
    expect(shown.plans.map((p) => p.name)).toEqual(["Monthly", "Yearly"]);
    expect(shown).toMatchObject({ price: 20, pricingUnit: "user_month" });

    // Reordered: the yearly plan is listed first, and the product's price and unit follow it.
    await putPlans(seller, "Plan CRM", {
      plans: [
        { ...yearly, id: saved.plans[1]?.id },
        { ...monthly, id: saved.plans[0]?.id },
      ],
    });
    expect(await detail("Plan CRM")).toMatchObject({ price: 200, pricingUnit: "user_year" });
    await putPlans(seller, "Plan CRM", {
      plans: [
        { ...monthly, id: saved.plans[0]?.id },
        { ...yearly, id: saved.plans[1]?.id },
      ],
    });
    expect(await detail("Plan CRM")).toMatchObject({ price: 20, pricingUnit: "user_month" });
  });

  test("wrong owner, wrong role, a product sold once, an unknown plan and bad input: each a clear 4xx, nothing changed", async () => {
    const before = ((await seller.get(plansUrl("Plan CRM"))).json() as PlanList).plans;
    const res = await otherSeller.request("PUT", plansUrl("Plan CRM"), { plans: [monthly] });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: "PRODUCT_NOT_FOUND" });
    expect((await otherSeller.get(plansUrl("Plan CRM"))).statusCode).toBe(404);
    expect((await buyer.request("PUT", plansUrl("Plan CRM"), { plans: [monthly] })).statusCode).toBe(403);
    const once = await seller.request("PUT", plansUrl("Plan Boxed"), { plans: [monthly] });
    expect(once.statusCode).toBe(409);
    expect(once.json()).toMatchObject({ code: "PRODUCT_NOT_RECURRING" });
    const unknown = await seller.request("PUT", plansUrl("Plan CRM"), {
      plans: [{ ...monthly, id: randomUUID() }],
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: "PLAN_NOT_FOUND" });
    const bad = await seller.request("PUT", plansUrl("Plan CRM"), {
      plans: [
        { ...monthly, minSeats: 10, maxSeats: 5 },
        { ...yearly, trialDays: 91, price: 0 },
      ],
    });
    expect(bad.statusCode).toBe(400);
    const paths = (bad.json() as { details: { path: string }[] }).details.map((e) => e.path);
    expect(paths).toEqual(expect.arrayContaining(["plans.0.maxSeats", "plans.1.trialDays", "plans.1.price"]));
    const twins = await seller.request("PUT", plansUrl("Plan CRM"), {
      plans: [monthly, { ...yearly, name: "monthly" }],
    });
    expect(twins.statusCode).toBe(400);
    expect(((await seller.get(plansUrl("Plan CRM"))).json() as PlanList).plans).toEqual(before);
  });

  test("an admin edits any product's plans, audited", async () => {
    const current = ((await admin.get(plansUrl("Plan CRM"))).json() as PlanList).plans;
    await putPlans(admin, "Plan CRM", {
      plans: current.map(({ subscribers: _s, price, ...p }) => ({ ...p, price: Number(price) })),
    });
    const superAdmin = await signedInClient(t.app, "superadmin@stackbay.test", DEMO_PASSWORD);
    const audit = await superAdmin.get(`/api/admin/audit?entityType=product&entityId=${ids["Plan CRM"]}`);
    expect(audit.statusCode).toBe(200);
    expect(JSON.stringify(audit.json())).toContain("plans");
  });
});

describe("checkout sells plans, with one free trial per buyer per product", () => {
  let trialOrderId = "";

  test("a plan of another product, seats outside the plan and a trial the plan does not offer: clear 4xx, nothing ordered", async () => {
    const plans = (await detail("Plan CRM")).plans;
    const yearlyPlan = plans.find((p) => p.interval === "year");
    const ordersBefore = await t.db.$count(orders);
    for (const [items, status, code] of [
      [[{ productId: ids["Plan Boxed"] ?? "", price: 49, planId: yearlyPlan?.id }], 404, "PLAN_NOT_FOUND"],
      [[{ productId: ids["Plan CRM"] ?? "", price: 20, planId: randomUUID() }], 404, "PLAN_NOT_FOUND"],
      [[{ productId: ids["Plan CRM"] ?? "", price: 20, quantity: 1 }], 400, "SEATS_OUT_OF_RANGE"],
      [[{ productId: ids["Plan CRM"] ?? "", price: 20, quantity: 51 }], 400, "SEATS_OUT_OF_RANGE"],
      [
        [{ productId: ids["Plan CRM"] ?? "", price: 200, quantity: 2, planId: yearlyPlan?.id, trial: true }],
        409,
        "TRIAL_NOT_OFFERED",
      ],
      [
        [{ productId: ids["Plan CRM"] ?? "", price: 20, quantity: 2, planId: yearlyPlan?.id }],
        409,
        "PRICE_CHANGED",
      ],
    ] as const) {
      const res = await buyer.post("/api/orders", orderBody({ items: items as never }));
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json()).toMatchObject({ code });
    }
    expect(await t.db.$count(orders)).toBe(ordersBefore);
  });

  test("a trial alone has nothing to pay: the order is confirmed at once and the subscription trials until its end", async () => {
    const monthlyPlan = (await detail("Plan CRM")).plans[0];
    const placed = await placeOrder(buyer, {
      items: [
        { productId: ids["Plan CRM"] ?? "", price: 20, quantity: 3, planId: monthlyPlan?.id, trial: true },
      ],
    });
    trialOrderId = placed.orderId;
    trialOrderIdOf.converted = placed.orderId;
    expect(placed.redirectUrl).toContain(`/checkout/complete`);
    const order = await getOrder(buyer, placed.orderId);
    expect(order).toMatchObject({ totalAmount: 0, isPaid: true, paymentStatus: "mock_confirmed" });
    const [sub] = (await desk(buyer)).filter((s) => s.orderId === placed.orderId);
    expect(sub).toMatchObject({
      status: "trialing",
      quantity: 3,
      unitPrice: "20.0000",
      planName: "Monthly",
      due: null,
    });
    const trialEnd = clock.now().getTime() + 14 * DAY_MS;
    expect(Math.abs(new Date(sub?.trialEndsAt ?? 0).getTime() - trialEnd)).toBeLessThan(60_000);
    expect(sub?.paidThrough).toBe(sub?.trialEndsAt);
    expect(Number(sub?.nextTotal)).toBeGreaterThanOrEqual(60);
    expect(sub?.licenseKeys.length).toBeGreaterThan(0);
    // No money moved: no ledger entry for the order.
    expect(await t.db.$count(journalEntries, eq(journalEntries.orderId, placed.orderId))).toBe(0);
  });

  test("a second trial of the same product is refused, by account, even with another plan; nothing is ordered", async () => {
    const monthlyPlan = (await detail("Plan CRM")).plans[0];
    const ordersBefore = await t.db.$count(orders);
    const res = await buyer.post(
      "/api/orders",
      orderBody({
        items: [
          { productId: ids["Plan CRM"] ?? "", price: 20, quantity: 2, planId: monthlyPlan?.id, trial: true },
        ],
      }),
    );
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: "TRIAL_USED", details: { productIds: [ids["Plan CRM"]] } });
    expect(await t.db.$count(orders)).toBe(ordersBefore);
  });

  test("the trial converts: its first period is invoiced in the trial's last days, paid, and renews from the trial's end", async () => {
    const [sub] = (await desk(buyer)).filter((s) => s.orderId === trialOrderId);
    const trialEnd = new Date(sub?.trialEndsAt ?? 0);
    moveTo(new Date(trialEnd.getTime() - 4 * DAY_MS));
    await renew();
    expect((await desk(buyer)).find((s) => s.id === sub?.id)?.due).toBeNull();
    moveTo(new Date(trialEnd.getTime() - RENEWAL_INVOICE_LEAD_DAYS.month * DAY_MS + 60_000));
    await renew();
    await renew();
    const invoiced = (await desk(buyer)).find((s) => s.id === sub?.id);
    expect(invoiced).toMatchObject({ status: "trialing" });
    expect(invoiced?.due?.total).toBe(invoiced?.nextTotal);
    expect(await mailsTo("buyer@stackbay.test", "Plan CRM subscription renews on")).toHaveLength(1);
    await pay(buyer, invoiced?.due?.orderId ?? "");
    const converted = (await desk(buyer)).find((s) => s.id === sub?.id);
    expect(converted).toMatchObject({ status: "active", due: null });
    expect(converted?.paidThrough).toBe(addIntervals(trialEnd, "month", 1).toISOString());
    expect(await t.db.$count(journalEntries, eq(journalEntries.orderId, invoiced?.due?.orderId ?? ""))).toBe(
      1,
    );
  });

  test("a trial cancelled before its end ends then at no cost: its pending first invoice is cancelled, nothing is charged", async () => {
    const person = await createVerifiedAccount(t.app, t.dataDir, { email: "trial-quitter@example.com" });
    const quitter = await signedInClient(t.app, person.email, person.password);
    const monthlyPlan = (await detail("Plan CRM")).plans[0];
    const { orderId } = await placeOrder(quitter, {
      items: [
        { productId: ids["Plan CRM"] ?? "", price: 20, quantity: 2, planId: monthlyPlan?.id, trial: true },
      ],
    });
    const [sub] = (await desk(quitter)).filter((s) => s.orderId === orderId);
    const trialEnd = new Date(sub?.trialEndsAt ?? 0);
    moveTo(new Date(trialEnd.getTime() - DAY_MS));
    await renew();
    const cancel = await quitter.post(`/api/subscriptions/${sub?.id}/cancel`);
    expect(cancel.statusCode).toBe(200);
    expect(cancel.json()).toMatchObject({ subscription: { status: "cancelling" } });
    moveTo(new Date(trialEnd.getTime() + 60_000));
    await renew();
    const ended = (await desk(quitter)).find((s) => s.id === sub?.id);
    expect(ended).toMatchObject({ status: "ended", endReason: "cancelled", due: null });
    const [paid] = await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(orders)
      .innerJoin(user, eq(user.id, orders.userId))
      .where(and(eq(user.email, person.email), eq(orders.isPaid, true), sql`${orders.totalAmount} > 0`));
    expect(paid?.n).toBe(0);
  });

  test("a trial and a router in one cart: the router is charged now, the trial nothing, both delivered", async () => {
    const person = await createVerifiedAccount(t.app, t.dataDir, { email: "router-and-trial@example.com" });
    const both = await signedInClient(t.app, person.email, person.password);
    const monthlyPlan = (await detail("Plan CRM")).plans[0];
    const order = await placeAndPay(t.app, both, {
      items: [
        { productId: ids["Plan CRM"] ?? "", price: 20, quantity: 2, planId: monthlyPlan?.id, trial: true },
        { productId: ids["Plan Router"] ?? "", price: 300 },
      ],
    });
    expect(order).toMatchObject({ isPaid: true, subtotal: 300 });
    const items = await t.db.select().from(orderItems).where(eq(orderItems.orderId, order.id));
    expect(items.find((i) => i.productId === ids["Plan CRM"])).toMatchObject({
      price: "0.0000",
      recurringPrice: "20.0000",
      trialDays: 14,
    });
    expect((await desk(both)).map((s) => s.status)).toEqual(["trialing"]);
  });
});

describe("a plan's new price is announced and applies only after the notice", () => {
  test("subscribers are e-mailed old price, new price and date; renewals before the date keep the old price", async () => {
    const person = await createVerifiedAccount(t.app, t.dataDir, { email: "price-notice@example.com" });
    const subscriber = await signedInClient(t.app, person.email, person.password);
    const listed = async () => ((await seller.get(plansUrl("Plan CRM"))).json() as PlanList).plans;
    const before = (await listed()).find((p) => p.interval === "month");
    const order = await placeAndPay(t.app, subscriber, {
      items: [{ productId: ids["Plan CRM"] ?? "", price: 20, quantity: 2, planId: before?.id }],
    });
    const plans = await listed();
    const monthlyPlan = plans.find((p) => p.interval === "month");
    // The editor counts the plan's live subscribers: the ones the price notice goes to.
    expect(monthlyPlan?.subscribers).toBe((before?.subscribers ?? 0) + 1);
    const [sub] = (await desk(subscriber)).filter((s) => s.orderId === order.id);
    expect(sub).toMatchObject({ status: "active", unitPrice: "20.0000", priceChange: null });
    const anchor = new Date(sub?.startedAt ?? 0);
    // Four days before the first renewal, the seller raises the monthly price to $25.
    moveTo(new Date(addIntervals(anchor, "month", 1).getTime() - 4 * DAY_MS));
    const noticeAt = clock.now();
    await putPlans(seller, "Plan CRM", {
      plans: plans.map(({ subscribers: _s, price, ...p }) => ({
        ...p,
        price: p.id === monthlyPlan?.id ? 25 : Number(price),
      })),
    });
    await t.app.jobs.idle();
    const from = firstRenewalAtNewPrice(anchor, "month", noticeAt);
    // The next renewal (four days away) is inside the 7 days' notice: the change waits for the one after.
    expect(from.toISOString()).toBe(addIntervals(anchor, "month", 2).toISOString());
    const notices = await mailsTo(person.email, "The price of Plan CRM changes");
    expect(notices).toHaveLength(1);
    expect(notices[0]?.body).toContain("$40.00");
    expect(notices[0]?.body).toContain("$50.00");
    const announced = (await desk(subscriber)).find((s) => s.id === sub?.id);
    expect(announced?.priceChange).toEqual({ unitPrice: "25.0000", from: from.toISOString() });
    expect(announced?.unitPrice).toBe("20.0000");

    const [row] = await t.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.id, sub?.id ?? ""));
    expect(row?.planId).toBe(monthlyPlan?.id);
    for (const [period, expected] of [
      [1, "40.0000"],
      [2, "50.0000"],
    ] as const) {
      moveTo(new Date(addIntervals(anchor, "month", period).getTime() - 2 * DAY_MS));
      await renew();
      const due = (await desk(subscriber)).find((s) => s.id === sub?.id)?.due;
      const [renewal] = await t.db
        .select()
        .from(orders)
        .where(eq(orders.id, due?.orderId ?? ""));
      expect(renewal?.subtotal).toBe(expected);
      await pay(subscriber, due?.orderId ?? "");
    }
    const after = (await desk(subscriber)).find((s) => s.id === sub?.id);
    expect(after).toMatchObject({ unitPrice: "25.0000", priceChange: null });
  });
});

describe("a free trial that never converted", () => {
  test("has its checkout details anonymised a year after it ended, once; its buyer's one trial is still known", async () => {
    const [quitter] = await t.db
      .select({ id: user.id })
      .from(user)
      .where(eq(user.email, "trial-quitter@example.com"));
    const [sub] = await t.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.userId, quitter?.id ?? ""));
    expect(sub).toMatchObject({ periodsPaid: 0, endReason: "cancelled" });
    const trialOrders = async () =>
      t.db
        .select({ info: orders.customerInfo })
        .from(orders)
        .where(eq(orders.userId, quitter?.id ?? ""));
    expect((await trialOrders()).map((o) => o.info.email)).toContain("buyer@stackbay.test");

    const anonymised = async () =>
      (await trialOrders()).filter((o) => o.info.fullName === "Former trial").length;
    await anonymiseTrials(t.db, clock.now());
    expect(await anonymised()).toBe(0);
    const endedAt = sub?.endedAt ?? new Date();
    const aYearLater = new Date(endedAt);
    aYearLater.setUTCMonth(aYearLater.getUTCMonth() + 12);
    await anonymiseTrials(t.db, new Date(aYearLater.getTime() - 60_000));
    expect(await anonymised()).toBe(0);
    expect(await anonymiseTrials(t.db, new Date(aYearLater.getTime() + 60_000))).toBeGreaterThanOrEqual(2);
    expect(await anonymised()).toBe(2);
    expect(await anonymiseTrials(t.db, new Date(aYearLater.getTime() + 60_000))).toBe(0);
    for (const order of await trialOrders())
      expect(order.info).toEqual({ fullName: "Former trial", email: "", address: "", city: "", country: "" });
    // The buyer who converted keeps theirs.
    const kept = await t.db
      .select({ info: orders.customerInfo })
      .from(orders)
      .where(eq(orders.id, trialOrderIdOf.converted));
    expect(kept[0]?.info.fullName).toBe("Bianca Buyer");
    const [still] = await t.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.id, sub?.id ?? ""));
    expect(still?.trialEndsAt).not.toBeNull();
  });
});
