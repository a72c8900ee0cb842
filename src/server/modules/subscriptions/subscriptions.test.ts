import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ATTRIBUTION_DAYS } from "#domain/commissions";
import { DAY_MS, formatDate } from "#domain/dates";
import type { Subscription } from "#domain/subscription-schemas";
import { addIntervals, RENEWAL_INVOICE_LEAD_DAYS } from "#domain/subscriptions";
import { commissions, licenses } from "#server/db/schema/after-sale";
import { products } from "#server/db/schema/catalog";
import { journalEntries } from "#server/db/schema/ledger";
import { orders } from "#server/db/schema/orders";
import { subscriptionRenewals, subscriptions } from "#server/db/schema/subscriptions";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import type { AdjustableClock } from "#server/lib/clock";
import { paymentDepsOf } from "#server/modules/payments/service";
import { runRenewals } from "#server/modules/renewals/service";
import { createTestApp } from "#server/test/app";
import { type createClient, createVerifiedAccount, signedInClient } from "#server/test/client";
import { unbalancedEntries } from "#server/test/ledger";
import { placeAndPay } from "#server/test/orders";
import { readOutbox } from "#server/test/outbox";
import { choose, eventsDelivered } from "#server/test/payments";

type Client = ReturnType<typeof createClient>;

let t: Awaited<ReturnType<typeof createTestApp>>;
let buyer: Client;
let clock: AdjustableClock;
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp({ seed: true });
  clock = t.app.clock as AdjustableClock;
  buyer = await signedInClient(t.app, "buyer@stackbay.test", DEMO_PASSWORD);
  const made = await t.db
    .insert(products)
    .values([
      { name: "Orbit CRM", category: "saas", price: "9", pricingUnit: "month", vendor: "Orbit" },
      { name: "Ledgerly Yearly", category: "saas", price: "120", pricingUnit: "year", vendor: "Ledgerly" },
      {
        name: "Team Chat Seats",
        category: "saas",
        price: "4.5",
        pricingUnit: "user_month",
        vendor: "Chatty",
      },
      { name: "Boxed Compiler", category: "software", price: "49", pricingUnit: "one_time", vendor: "Acme" },
    ])
    .returning({ id: products.id, name: products.name });
  for (const row of made) ids[row.name] = row.id;
});
afterAll(async () => {
  clock.reset();
  await t.close();
});

const prices: Record<string, number> = {
  "Orbit CRM": 9,
  "Ledgerly Yearly": 120,
  "Team Chat Seats": 4.5,
  "Boxed Compiler": 49,
};
const buy = (client: Client, items: { name: string; quantity?: number }[]) =>
  placeAndPay(t.app, client, {
    items: items.map(({ name, quantity = 1 }) => ({
      productId: ids[name] ?? "",
      quantity,
      price: prices[name] ?? 0,
    })),
  });

async function desk(client: Client): Promise<Subscription[]> {
  const res = await client.get("/api/subscriptions");
  expect(res.statusCode).toBe(200);
  return (res.json() as { items: Subscription[] }).items;
}
async function mine(client: Client, orderId: string, name: string): Promise<Subscription> {
  const found = (await desk(client)).find((s) => s.orderId === orderId && s.productName === name);
  if (!found) throw new Error(`no subscription to ${name} from order ${orderId}`);
  return found;
}
const renew = async () => {
  const run = await runRenewals(paymentDepsOf(t.app), clock.now());
  await t.app.jobs.idle();
  return run;
};
/** Moves the test clock to `at` (never back). */
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
/** How many renewals of a subscription were claimed (one per period invoiced). */
async function claimsOf(subscriptionId: string): Promise<number> {
  const rows = await t.db
    .select({ id: subscriptionRenewals.id })
    .from(subscriptionRenewals)
    .where(eq(subscriptionRenewals.subscriptionId, subscriptionId));
  return rows.length;
}
const mails = async (subject: string) =>
  (await readOutbox(t.dataDir)).filter((m) => m.subject.includes(subject));

describe("subscriptions start at checkout and renew from our own database", () => {
  test("the demo buyer's desk shows every state on a first start: active monthly and seats, a yearly one renewing within 30 days, one past due", async () => {
    const seeded = (await desk(buyer)).filter((s) => s.productId !== null);
    const now = clock.now().getTime();
    const byName = new Map(seeded.map((s) => [s.productName, s]));
    expect(byName.get("Orbitide Uptime Board")).toMatchObject({
      status: "active",
      interval: "month",
      due: null,
    });
    expect(byName.get("Nimbus CRM Pro")).toMatchObject({ status: "active", quantity: 3 });
    const yearly = byName.get("Tidewell QueryDesk");
    expect(yearly).toMatchObject({ status: "active", interval: "year", due: null });
    expect(new Date(yearly?.paidThrough ?? 0).getTime() - now).toBeLessThanOrEqual(30 * DAY_MS);
    const pastDue = byName.get("Driftpoint Product Analytics");
    expect(pastDue).toMatchObject({ status: "past_due" });
    expect(pastDue?.due?.total).toBe(pastDue?.nextTotal);
    expect(new Date(pastDue?.endsAt ?? 0).getTime()).toBeGreaterThan(now);
  });

  test("a monthly plan and a one-time item in one order: one subscription, renewed exactly 12 times in a year, each renewal one paid order with one balanced sale", async () => {
    const order = await buy(buyer, [{ name: "Orbit CRM" }, { name: "Boxed Compiler" }]);
    const started = await mine(buyer, order.id, "Orbit CRM");
    expect(started).toMatchObject({ status: "active", interval: "month", quantity: 1, unitPrice: "9.0000" });
    expect(started.licenseKeys).toHaveLength(1);
    expect((await desk(buyer)).filter((s) => s.orderId === order.id)).toHaveLength(1);
    const anchor = new Date(started.startedAt);
    expect(started.paidThrough).toBe(addIntervals(anchor, "month", 1).toISOString());

    for (let period = 1; period <= 12; period++) {
      const dueAt = addIntervals(anchor, "month", period);
      // Not before its lead time: nothing is invoiced.
      moveTo(new Date(dueAt.getTime() - RENEWAL_INVOICE_LEAD_DAYS.month * DAY_MS - 60_000));
      await renew();
      expect((await mine(buyer, order.id, "Orbit CRM")).due).toBeNull();
      moveTo(new Date(dueAt.getTime() - RENEWAL_INVOICE_LEAD_DAYS.month * DAY_MS + 60_000));
      // Two instances running the job at once, then a third run, invoice the period once.
      await Promise.all([renew(), renew()]);
      await renew();
      expect(await claimsOf(started.id)).toBe(period);
      const invoiced = await mine(buyer, order.id, "Orbit CRM");
      expect(invoiced.due?.dueAt).toBe(dueAt.toISOString());
      expect(invoiced.due?.total).toBe(invoiced.nextTotal);
      await pay(buyer, invoiced.due?.orderId ?? "");
      const renewed = await mine(buyer, order.id, "Orbit CRM");
      expect(renewed).toMatchObject({ status: "active", due: null });
      expect(renewed.paidThrough).toBe(addIntervals(anchor, "month", period + 1).toISOString());
      // The same licence key, renewing with the subscription.
      expect(renewed.licenseKeys).toEqual(started.licenseKeys);
    }

    const [subscription] = await t.db.select().from(subscriptions).where(eq(subscriptions.orderId, order.id));
    const renewals = await t.db
      .select({
        orderId: subscriptionRenewals.orderId,
        status: orders.paymentStatus,
        total: orders.totalAmount,
      })
      .from(subscriptionRenewals)
      .innerJoin(orders, eq(orders.id, subscriptionRenewals.orderId))
      .where(eq(subscriptionRenewals.subscriptionId, subscription?.id ?? ""));
    expect(renewals).toHaveLength(12);
    expect(renewals.every((r) => r.status === "mock_confirmed")).toBe(true);
    const renewalOrders = renewals.map((r) => r.orderId);
    const sales = await t.db
      .select({ orderId: journalEntries.orderId })
      .from(journalEntries)
      .where(and(eq(journalEntries.kind, "sale"), inArray(journalEntries.orderId, renewalOrders)));
    expect(sales.map((s) => s.orderId).sort()).toEqual([...renewalOrders].sort());
    expect(await unbalancedEntries(t.db)).toEqual([]);
    // No renewal issued keys of its own.
    expect(await t.db.select().from(licenses).where(inArray(licenses.orderId, renewalOrders))).toEqual([]);
    const [key] = await t.db
      .select()
      .from(licenses)
      .where(and(eq(licenses.orderId, order.id), eq(licenses.productId, ids["Orbit CRM"] ?? "")));
    expect(key?.renewsAt?.toISOString()).toBe(addIntervals(anchor, "month", 13).toISOString());
    expect((await mails("renews on")).filter((m) => m.subject.includes("Orbit CRM"))).toHaveLength(12);
  });

  test("a yearly plan is invoiced fourteen days ahead and renews once in a year; seats are the quantity", async () => {
    const order = await buy(buyer, [{ name: "Ledgerly Yearly" }, { name: "Team Chat Seats", quantity: 5 }]);
    const yearly = await mine(buyer, order.id, "Ledgerly Yearly");
    const seats = await mine(buyer, order.id, "Team Chat Seats");
    expect(seats).toMatchObject({ interval: "month", quantity: 5, unitPrice: "4.5000" });
    // 5 × $4.50 with the order's tax (the demo buyer's 5% UAE VAT).
    expect(seats.nextTotal).toBe("23.6300");
    expect(yearly.nextTotal).toBe("126.0000");
    // The seats stop at their first period's end: only the yearly plan renews below.
    await buyer.post(`/api/subscriptions/${seats.id}/cancel`);
    const anchor = new Date(yearly.startedAt);
    let renewals = 0;
    for (let month = 1; month <= 12; month++) {
      moveTo(addIntervals(anchor, "month", month));
      await renew();
      const now = await mine(buyer, order.id, "Ledgerly Yearly");
      if (now.due) {
        expect(new Date(now.due.dueAt).getTime() - clock.now().getTime()).toBeLessThanOrEqual(
          RENEWAL_INVOICE_LEAD_DAYS.year * DAY_MS,
        );
        await pay(buyer, now.due.orderId);
        renewals++;
      }
    }
    expect(renewals).toBe(1);
    const after = await mine(buyer, order.id, "Ledgerly Yearly");
    expect(after.paidThrough).toBe(addIntervals(anchor, "year", 2).toISOString());
    // The seats were cancelled for their period's end, which has long come.
    expect(await mine(buyer, order.id, "Team Chat Seats")).toMatchObject({
      status: "ended",
      endReason: "cancelled",
    });
  });

  test("a yearly renewal is announced 30 and 7 days ahead, each once per year; a run that first looks inside 7 days sends only that one", async () => {
    const [product] = await t.db
      .insert(products)
      .values({ name: "Notice Yearly", category: "saas", price: "300", pricingUnit: "year", vendor: "Notes" })
      .returning({ id: products.id });
    // A buyer of its own: the demo buyer's payment starts are rate-limited across this file's tests.
    const person = await createVerifiedAccount(t.app, t.dataDir, { email: "yearly-notices@example.com" });
    const noticed = await signedInClient(t.app, person.email, person.password);
    const order = await placeAndPay(t.app, noticed, {
      items: [{ productId: product?.id ?? "", price: 300 }],
    });
    const sub = await mine(noticed, order.id, "Notice Yearly");
    const notices = async () => (await mails("Reminder: Notice Yearly renews on")).length;
    const dueAt = new Date(sub.paidThrough);
    const at = (days: number, ms = 0) => new Date(dueAt.getTime() - days * DAY_MS + ms);
    moveTo(at(31));
    await renew();
    expect(await notices()).toBe(0);
    moveTo(at(30, 60_000));
    await renew();
    await renew();
    expect(await notices()).toBe(1);
    const [notice] = await mails("Reminder: Notice Yearly renews on");
    expect(notice?.subject).toContain(formatDate(dueAt));
    // $300 with the demo buyer's 5% VAT.
    expect(notice?.body).toContain("$315.00");
    moveTo(at(8));
    await renew();
    expect(await notices()).toBe(1);
    moveTo(at(7, 60_000));
    await renew();
    await renew();
    expect(await notices()).toBe(2);
    const due = (await mine(noticed, order.id, "Notice Yearly")).due;
    await pay(noticed, due?.orderId ?? "");
    // The next year: the job first looks 6 days before the renewal, so only the 7-day notice is sent.
    const next = new Date((await mine(noticed, order.id, "Notice Yearly")).paidThrough);
    moveTo(new Date(next.getTime() - 6 * DAY_MS));
    await renew();
    await renew();
    expect(await notices()).toBe(3);
  });

  test("an unpaid renewal is reminded on days 1, 3 and 5, and on day 7 the subscription ends: its order cannot be paid, its keys stop working", async () => {
    const order = await buy(buyer, [{ name: "Orbit CRM" }]);
    const started = await mine(buyer, order.id, "Orbit CRM");
    const dueAt = new Date(started.paidThrough);
    // A paid subscription's key is active and renews when the subscription does.
    const paid = await buyer.post("/api/licenses/validate", { key: started.licenseKeys[0] });
    expect(paid.json()).toEqual({
      valid: true,
      status: "active",
      product: "Orbit CRM",
      renewsAt: started.paidThrough,
      seats: 1,
      seatsUsed: 0,
      activated: null,
    });
    moveTo(new Date(dueAt.getTime() - DAY_MS));
    await renew();
    const invoiced = await mine(buyer, order.id, "Orbit CRM");
    const renewalOrder = invoiced.due?.orderId ?? "";
    expect(renewalOrder).not.toBe("");
    // Each reminder names the amount and the day the licences stop.
    const reminders = async () =>
      (await mails("Payment due: your Orbit CRM")).filter((m) =>
        m.body.includes(`keep working until ${formatDate(new Date(dueAt.getTime() + 7 * DAY_MS))}`),
      );
    const before = (await reminders()).length;

    moveTo(new Date(dueAt.getTime() + 60_000));
    await renew();
    const pastDue = await mine(buyer, order.id, "Orbit CRM");
    expect(pastDue.status).toBe("past_due");
    expect(pastDue.endsAt).toBe(new Date(dueAt.getTime() + 7 * DAY_MS).toISOString());
    expect(pastDue.licenseKeys).toEqual(started.licenseKeys);
    // Unpaid, in the retries' grace: still valid, and says so.
    const grace = await buyer.post("/api/licenses/validate", { key: started.licenseKeys[0] });
    expect(grace.json()).toMatchObject({ valid: true, status: "past_due" });
    for (const [sent, day] of [1, 3, 5].entries()) {
      moveTo(new Date(dueAt.getTime() + day * DAY_MS + 60_000));
      await renew();
      await renew();
      expect((await reminders()).length - before).toBe(sent + 1);
      expect((await mine(buyer, order.id, "Orbit CRM")).status).toBe("past_due");
    }
    moveTo(new Date(dueAt.getTime() + 7 * DAY_MS + 60_000));
    await renew();
    const ended = await mine(buyer, order.id, "Orbit CRM");
    expect(ended).toMatchObject({ status: "ended", endReason: "unpaid", due: null, licenseKeys: [] });
    const retry = await buyer.post(`/api/orders/${renewalOrder}/payment`);
    expect(retry.statusCode).toBe(409);
    expect(retry.json().code).toBe("ORDER_CANCELLED");
    const check = await buyer.post("/api/licenses/validate", { key: started.licenseKeys[0] });
    expect(check.json()).toMatchObject({ valid: false, status: "revoked" });
    expect((await mails("Orbit CRM subscription has ended")).length).toBeGreaterThanOrEqual(1);
  });

  test("a renewal paid on a page opened before its subscription ended unpaid brings the subscription back, keys and all", async () => {
    // A buyer of their own: payment pages opened are limited per account.
    const account = await createVerifiedAccount(t.app, t.dataDir, { email: "late-payer@example.com" });
    const buyer = await signedInClient(t.app, account.email, account.password);
    const order = await buy(buyer, [{ name: "Orbit CRM" }]);
    const started = await mine(buyer, order.id, "Orbit CRM");
    const dueAt = new Date(started.paidThrough);
    moveTo(new Date(dueAt.getTime() - DAY_MS));
    await renew();
    const renewalOrder = (await mine(buyer, order.id, "Orbit CRM")).due?.orderId ?? "";
    // The buyer opens the payment page on the last day, and pays only after the subscription has ended.
    moveTo(new Date(dueAt.getTime() + 7 * DAY_MS - 60_000));
    const opened = await buyer.post(`/api/orders/${renewalOrder}/payment`);
    expect(opened.statusCode).toBe(200);
    moveTo(new Date(dueAt.getTime() + 7 * DAY_MS + 60_000));
    await renew();
    expect(await mine(buyer, order.id, "Orbit CRM")).toMatchObject({ status: "ended", endReason: "unpaid" });
    await choose(buyer, (opened.json() as { redirectUrl: string }).redirectUrl, "pay");
    await eventsDelivered(t.app);
    const back = await mine(buyer, order.id, "Orbit CRM");
    expect(back).toMatchObject({
      status: "active",
      endReason: null,
      licenseKeys: started.licenseKeys,
      paidThrough: addIntervals(dueAt, "month", 1).toISOString(),
    });
    const check = await buyer.post("/api/licenses/validate", { key: started.licenseKeys[0] });
    expect(check.json()).toMatchObject({ valid: true });
  });

  test("cancel at period end and undo; someone else's subscription, an ended one and a malformed id are refused", async () => {
    const order = await buy(buyer, [{ name: "Orbit CRM" }]);
    const sub = await mine(buyer, order.id, "Orbit CRM");
    const account = await createVerifiedAccount(t.app, t.dataDir, { email: "stranger@example.com" });
    const stranger = await signedInClient(t.app, account.email, account.password);
    for (const action of ["cancel", "resume"]) {
      const res = await stranger.post(`/api/subscriptions/${sub.id}/${action}`);
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe("SUBSCRIPTION_NOT_FOUND");
    }
    expect(await desk(stranger)).toEqual([]);
    expect((await buyer.post("/api/subscriptions/not-a-uuid/cancel")).statusCode).toBe(400);
    const visitor = await t.app.inject({ method: "GET", url: "/api/subscriptions" });
    expect(visitor.statusCode).toBe(401);

    const cancelled = await buyer.post(`/api/subscriptions/${sub.id}/cancel`);
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json().subscription).toMatchObject({
      status: "cancelling",
      endsAt: sub.paidThrough,
      nextTotal: null,
    });
    const resumed = await buyer.post(`/api/subscriptions/${sub.id}/resume`);
    expect(resumed.json().subscription).toMatchObject({ status: "active", endsAt: null });
    await buyer.post(`/api/subscriptions/${sub.id}/cancel`);
    // A cancelled subscription is not invoiced, and ends when its period does.
    moveTo(new Date(new Date(sub.paidThrough).getTime() - DAY_MS));
    await renew();
    expect((await mine(buyer, order.id, "Orbit CRM")).due).toBeNull();
    moveTo(new Date(new Date(sub.paidThrough).getTime() + 60_000));
    // Past its end, even before the renewal job has recorded it, its key has expired.
    const expired = await buyer.post("/api/licenses/validate", { key: sub.licenseKeys[0] });
    expect(expired.json()).toMatchObject({
      valid: false,
      status: "expired",
      product: "Orbit CRM",
      renewsAt: null,
    });
    await renew();
    const ended = await mine(buyer, order.id, "Orbit CRM");
    expect(ended).toMatchObject({ status: "ended", endReason: "cancelled", endsAt: sub.paidThrough });
    const again = await buyer.post(`/api/subscriptions/${sub.id}/resume`);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe("SUBSCRIPTION_ENDED");
  });

  test("deleting the account ends its subscriptions and cancels the renewal it had not paid", async () => {
    const account = await createVerifiedAccount(t.app, t.dataDir, { email: "leaving@example.com" });
    const leaving = await signedInClient(t.app, account.email, account.password);
    const order = await buy(leaving, [{ name: "Orbit CRM" }]);
    const sub = await mine(leaving, order.id, "Orbit CRM");
    moveTo(new Date(new Date(sub.paidThrough).getTime() - DAY_MS));
    await renew();
    const renewalOrder = (await mine(leaving, order.id, "Orbit CRM")).due?.orderId ?? "";
    expect(renewalOrder).not.toBe("");
    expect((await leaving.request("DELETE", "/api/me", { password: account.password })).statusCode).toBe(204);
    const [after] = await t.db.select().from(subscriptions).where(eq(subscriptions.id, sub.id));
    expect(after).toMatchObject({ endReason: "cancelled" });
    expect(after?.endedAt).not.toBeNull();
    const [unpaid] = await t.db.select().from(orders).where(eq(orders.id, renewalOrder));
    expect(unpaid?.cancelledAt).not.toBeNull();
    expect(
      await t.db
        .select()
        .from(licenses)
        .where(and(eq(licenses.orderId, order.id), eq(licenses.status, "active"))),
    ).toEqual([]);
    // Nothing is invoiced for it any more.
    moveTo(new Date(new Date(sub.paidThrough).getTime() + 40 * DAY_MS));
    await renew();
    expect(
      await t.db.select().from(subscriptionRenewals).where(eq(subscriptionRenewals.subscriptionId, sub.id)),
    ).toHaveLength(1);
  });

  test("cancelling a past-due subscription ends it now, not back at its due date, with the renewal it had not paid", async () => {
    const order = await buy(buyer, [{ name: "Orbit CRM" }]);
    const sub = await mine(buyer, order.id, "Orbit CRM");
    moveTo(new Date(new Date(sub.paidThrough).getTime() + 2 * DAY_MS));
    await renew();
    const pastDue = await mine(buyer, order.id, "Orbit CRM");
    expect(pastDue.status).toBe("past_due");
    const renewalOrder = pastDue.due?.orderId ?? "";
    const before = clock.now().getTime();
    const res = await buyer.post(`/api/subscriptions/${sub.id}/cancel`);
    expect(res.statusCode).toBe(200);
    const ended = res.json().subscription as Subscription;
    expect(ended).toMatchObject({ status: "ended", endReason: "cancelled", due: null });
    const endedAt = new Date(ended.endsAt ?? 0).getTime();
    expect(endedAt).toBeGreaterThanOrEqual(before);
    expect(endedAt).toBeLessThanOrEqual(clock.now().getTime());
    const [unpaid] = await t.db.select().from(orders).where(eq(orders.id, renewalOrder));
    expect(unpaid?.cancelledAt).not.toBeNull();
  });

  test("a subscription that came through a reseller's link earns the reseller's commission on every renewal, long after the click's attribution window", async () => {
    const [relay] = await t.db
      .insert(products)
      .values({
        name: "Relay Pro",
        category: "saas",
        price: "20",
        pricingUnit: "month",
        vendor: "Relay",
        isResellable: true,
        commissionRate: "0.1000",
      })
      .returning({ id: products.id });
    const reseller = await signedInClient(t.app, "reseller@stackbay.test", DEMO_PASSWORD);
    const { code } = (await reseller.get("/api/reseller/links?pageSize=100")).json() as { code: string };
    const account = await createVerifiedAccount(t.app, t.dataDir, { email: "referred@example.com" });
    const referred = await signedInClient(t.app, account.email, account.password);
    expect(
      (await referred.post("/api/referrals/visit", { code, productId: relay?.id })).statusCode,
    ).toBeLessThan(300);
    const order = await placeAndPay(t.app, referred, {
      items: [{ productId: relay?.id ?? "", quantity: 1, price: 20 }],
    });
    const sub = await mine(referred, order.id, "Relay Pro");
    const renewalOrders: string[] = [];
    for (let period = 1; period <= 2; period++) {
      const dueAt = addIntervals(new Date(sub.startedAt), "month", period);
      moveTo(new Date(dueAt.getTime() - DAY_MS));
      await renew();
      const due = (await mine(referred, order.id, "Relay Pro")).due;
      expect(due).not.toBeNull();
      await pay(referred, due?.orderId ?? "");
      renewalOrders.push(due?.orderId ?? "");
    }
    // The second renewal is paid two months after the click, past its attribution window.
    expect(clock.now().getTime() - new Date(sub.startedAt).getTime()).toBeGreaterThan(
      ATTRIBUTION_DAYS * DAY_MS,
    );
    const earned = await t.db
      .select({ orderId: commissions.orderId, amount: commissions.amount })
      .from(commissions)
      .where(inArray(commissions.orderId, [order.id, ...renewalOrders]));
    expect(earned.map((c) => c.orderId).sort()).toEqual([order.id, ...renewalOrders].sort());
    expect(earned.every((c) => c.amount === "2.0000")).toBe(true);
  });

  test("a free trial that came through a reseller's link earns the commission when it converts, and on the renewals after", async () => {
    const [product] = await t.db
      .insert(products)
      .values({
        name: "Relay Trial",
        category: "saas",
        price: "30",
        pricingUnit: "month",
        vendor: "Relay",
        isResellable: true,
        commissionRate: "0.1000",
      })
      .returning({ id: products.id });
    await t.db.execute(
      sql`insert into product_plans (product_id, name, interval, price, trial_days) values (${product?.id}, 'Monthly', 'month', 30, 7)`,
    );
    const reseller = await signedInClient(t.app, "reseller@stackbay.test", DEMO_PASSWORD);
    const { code } = (await reseller.get("/api/reseller/links?pageSize=100")).json() as { code: string };
    const account = await createVerifiedAccount(t.app, t.dataDir, { email: "referred-trial@example.com" });
    const referred = await signedInClient(t.app, account.email, account.password);
    await referred.post("/api/referrals/visit", { code, productId: product?.id });
    const order = await placeAndPay(t.app, referred, {
      items: [{ productId: product?.id ?? "", quantity: 1, price: 30, trial: true }],
    });
    const sub = await mine(referred, order.id, "Relay Trial");
    expect(sub.status).toBe("trialing");
    const trialing = await referred.post("/api/licenses/validate", { key: sub.licenseKeys[0] });
    expect(trialing.json()).toMatchObject({ valid: true, status: "trialing", product: "Relay Trial" });
    const paidOrders: string[] = [];
    for (let period = 0; period <= 1; period++) {
      moveTo(new Date(addIntervals(new Date(sub.paidThrough), "month", period).getTime() - DAY_MS));
      await renew();
      const due = (await mine(referred, order.id, "Relay Trial")).due;
      await pay(referred, due?.orderId ?? "");
      paidOrders.push(due?.orderId ?? "");
    }
    const earned = await t.db
      .select({ orderId: commissions.orderId, amount: commissions.amount })
      .from(commissions)
      .where(inArray(commissions.orderId, [order.id, ...paidOrders]));
    expect(earned.map((c) => c.orderId).sort()).toEqual([...paidOrders].sort());
    expect(earned.every((c) => c.amount === "3.0000")).toBe(true);
  });
});
