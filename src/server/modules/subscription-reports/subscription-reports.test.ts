import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DAY_MS } from "#domain/dates";
import type { AdminSubscriptionReport, SellerSubscriptionReport } from "#domain/subscription-report-schemas";
import type { Subscription } from "#domain/subscription-schemas";
import { licenses } from "#server/db/schema/after-sale";
import { auditLog } from "#server/db/schema/audit";
import { user } from "#server/db/schema/auth";
import { products } from "#server/db/schema/catalog";
import { orders } from "#server/db/schema/orders";
import { subscriptions } from "#server/db/schema/subscriptions";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import type { AdjustableClock } from "#server/lib/clock";
import { paymentDepsOf } from "#server/modules/payments/service";
import { runRenewals } from "#server/modules/renewals/service";
import { createTestApp } from "#server/test/app";
import { type createClient, createVerifiedAccount, signedInClient } from "#server/test/client";
import { placeAndPay } from "#server/test/orders";
import { readOutbox } from "#server/test/outbox";

type Client = ReturnType<typeof createClient>;

let t: Awaited<ReturnType<typeof createTestApp>>;
let clock: AdjustableClock;
let admin: Client;
let demoBuyer: Client;
let sellerA: Client;
let sellerB: Client;
let quinn: Client;
let quinnEmail: string;
let sellerAEmail: string;
const ids: Record<string, string> = {};
/** The subscriptions Quinn started, by product name. */
const started: Record<string, Subscription> = {};

const prices: Record<string, string> = {
  "Gauge Monthly": "9",
  "Gauge Yearly": "99",
  "Gauge Seats": "4.5",
  "Other Monthly": "15",
};

beforeAll(async () => {
  t = await createTestApp({ seed: true });
  clock = t.app.clock as AdjustableClock;
  admin = await signedInClient(t.app, "admin@stackbay.test", DEMO_PASSWORD);
  demoBuyer = await signedInClient(t.app, "buyer@stackbay.test", DEMO_PASSWORD);
  // Sellers of their own, so the demo data's subscriptions stay out of their figures.
  const a = await createVerifiedAccount(t.app, t.dataDir, {
    email: "gauge-seller@example.com",
    firstName: "Greta",
    accountType: "seller",
  });
  const b = await createVerifiedAccount(t.app, t.dataDir, {
    email: "other-seller@example.com",
    firstName: "Otto",
    accountType: "seller",
  });
  sellerAEmail = a.email;
  sellerA = await signedInClient(t.app, a.email, a.password);
  sellerB = await signedInClient(t.app, b.email, b.password);
  const q = await createVerifiedAccount(t.app, t.dataDir, {
    email: "quinn.subscriber@example.com",
    firstName: "Quinn",
  });
  quinnEmail = q.email;
  quinn = await signedInClient(t.app, q.email, q.password);
  const sellerId = async (email: string) =>
    (await t.db.select({ id: user.id }).from(user).where(eq(user.email, email)))[0]?.id ?? "";
  const [aId, bId] = [await sellerId(a.email), await sellerId(b.email)];
  const made = await t.db
    .insert(products)
    .values([
      {
        name: "Gauge Monthly",
        category: "saas",
        price: "9",
        pricingUnit: "month",
        vendor: "Gauge",
        sellerId: aId,
      },
      {
        name: "Gauge Yearly",
        category: "saas",
        price: "99",
        pricingUnit: "year",
        vendor: "Gauge",
        sellerId: aId,
      },
      {
        name: "Gauge Seats",
        category: "saas",
        price: "4.5",
        pricingUnit: "user_month",
        vendor: "Gauge",
        sellerId: aId,
      },
      {
        name: "Other Monthly",
        category: "saas",
        price: "15",
        pricingUnit: "month",
        vendor: "Otter",
        sellerId: bId,
      },
    ])
    .returning({ id: products.id, name: products.name });
  for (const row of made) ids[row.name] = row.id;
});
afterAll(async () => {
  clock.reset();
  await t.close();
});

async function sellerReport(client: Client, query = ""): Promise<SellerSubscriptionReport> {
  const res = await client.get(`/api/seller/subscriptions${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as SellerSubscriptionReport;
}
async function adminReport(query = ""): Promise<AdminSubscriptionReport> {
  const res = await admin.get(`/api/admin/subscriptions${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as AdminSubscriptionReport;
}
async function desk(client: Client): Promise<Subscription[]> {
  return ((await client.get("/api/subscriptions")).json() as { items: Subscription[] }).items;
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
const mails = async (subject: string) => (await readOutbox(t.dataDir)).filter((m) => m.subject === subject);
/** Whether `iso` is a moment from `from` to now by the test clock (which runs on with real time). */
const within = (iso: string, from: Date) =>
  new Date(iso).getTime() >= from.getTime() && new Date(iso).getTime() <= clock.now().getTime();
const auditOf = (subscriptionId: string) =>
  t.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entityType, "subscription"), eq(auditLog.entityId, subscriptionId)));

describe("subscription reports", () => {
  test("a seller sees their products' subscriptions: counts, MRR with a yearly plan as a twelfth to the cent, and the buyer by first name only", async () => {
    const before = await sellerReport(sellerA);
    expect(before.figures).toMatchObject({ active: 0, pastDue: 0, mrr: "0.0000", newMrr: "0.0000" });
    expect(before.live).toMatchObject({ items: [], total: 0, page: 1 });
    expect(before.pastDue.items).toEqual([]);

    const order = await placeAndPay(t.app, quinn, {
      email: quinnEmail,
      items: [
        { productId: ids["Gauge Monthly"] ?? "", price: prices["Gauge Monthly"] ?? "" },
        { productId: ids["Gauge Yearly"] ?? "", price: prices["Gauge Yearly"] ?? "" },
        { productId: ids["Gauge Seats"] ?? "", price: prices["Gauge Seats"] ?? "", quantity: 3 },
        { productId: ids["Other Monthly"] ?? "", price: prices["Other Monthly"] ?? "" },
      ],
    });
    for (const s of await desk(quinn)) if (s.orderId === order.id) started[s.productName] = s;
    expect(Object.keys(started).sort()).toEqual([
      "Gauge Monthly",
      "Gauge Seats",
      "Gauge Yearly",
      "Other Monthly",
    ]);

    const res = await sellerA.get("/api/seller/subscriptions");
    // Nothing that reaches the buyer: no e-mail, no last name.
    expect(res.body).not.toContain("@");
    expect(res.body).not.toContain("Person");
    const report = res.json() as SellerSubscriptionReport;
    expect(report.figures).toEqual({
      monthStart: new Date(
        Date.UTC(clock.now().getUTCFullYear(), clock.now().getUTCMonth(), 1),
      ).toISOString(),
      active: 3,
      cancelling: 0,
      pastDue: 0,
      endedThisMonth: 0,
      endedUnpaidThisMonth: 0,
      trialing: 0,
      trialsConvertedThisMonth: 0,
      trialsLostThisMonth: 0,
      // $9 + $99 / 12 + 3 × $4.50, before tax.
      mrr: "30.7500",
      mrrAtMonthStart: "0.0000",
      newMrr: "30.7500",
      expansionMrr: "0.0000",
      contractionMrr: "0.0000",
      churnedMrr: "0.0000",
    });
    expect(report.live.total).toBe(3);
    const yearly = report.live.items.find((item) => item.productName === "Gauge Yearly");
    expect(yearly).toEqual({
      subscriptionId: started["Gauge Yearly"]?.id,
      productId: ids["Gauge Yearly"],
      productName: "Gauge Yearly",
      buyer: "Quinn",
      interval: "year",
      quantity: 1,
      status: "active",
      periodAmount: "99.0000",
      monthlyAmount: "8.2500",
      startedAt: started["Gauge Yearly"]?.startedAt,
      renewsAt: started["Gauge Yearly"]?.paidThrough,
      endsAt: null,
    });
    expect(report.live.items.find((item) => item.productName === "Gauge Seats")).toMatchObject({
      quantity: 3,
      periodAmount: "13.5000",
      monthlyAmount: "13.5000",
    });

    // Another seller sees their own subscription only; the admin sees all four among the platform's.
    const other = await sellerReport(sellerB);
    expect(other.live.items.map((item) => item.productName)).toEqual(["Other Monthly"]);
    expect(other.figures).toMatchObject({ active: 1, mrr: "15.0000" });
    const platform = await adminReport(`?q=${encodeURIComponent(quinnEmail)}`);
    expect(platform.live.items.map((item) => item.productName).sort()).toEqual([
      "Gauge Monthly",
      "Gauge Seats",
      "Gauge Yearly",
      "Other Monthly",
    ]);
    expect(platform.live.items.find((item) => item.productName === "Gauge Yearly")).toMatchObject({
      buyerEmail: quinnEmail,
      buyerName: "Quinn Person",
      vendor: "Gauge",
      sellerEmail: sellerAEmail,
    });
    // The figures are the platform's, whatever the search: they hold at least these four.
    const all = await adminReport();
    expect(all.figures).toEqual(platform.figures);
    expect(Number(all.figures.mrr)).toBeGreaterThanOrEqual(30.75 + 15);
  });

  test("who may read: a buyer is refused the seller's view, a seller the admin's; bad queries are refused", async () => {
    const buyerAsks = await demoBuyer.get("/api/seller/subscriptions");
    expect(buyerAsks.statusCode).toBe(403);
    expect(buyerAsks.json().code).toBe("FORBIDDEN");
    expect((await sellerA.get("/api/admin/subscriptions")).statusCode).toBe(403);
    expect(
      (await sellerA.post(`/api/admin/subscriptions/${started["Gauge Monthly"]?.id}/remind`)).statusCode,
    ).toBe(403);
    expect((await t.app.inject({ method: "GET", url: "/api/seller/subscriptions" })).statusCode).toBe(401);
    for (const query of ["?status=ended", "?page=0", "?duePage=x"]) {
      const res = await admin.get(`/api/admin/subscriptions${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().code).toBe("VALIDATION_ERROR");
    }
  });

  test("a renewal past its due date: the seller's past-due list and the admin's dunning queue show it with its next reminder", async () => {
    const monthly = started["Gauge Monthly"] as Subscription;
    const dueAt = new Date(monthly.paidThrough);
    moveTo(new Date(dueAt.getTime() - DAY_MS));
    await renew();
    const invoiced = (await desk(quinn)).find((s) => s.id === monthly.id);
    expect(invoiced?.due).not.toBeNull();
    moveTo(new Date(dueAt.getTime() + 60_000));
    await renew();

    const report = await sellerReport(sellerA);
    expect(report.figures).toMatchObject({ active: 1, pastDue: 2, cancelling: 0 });
    // Past due still counts in MRR until it ends.
    expect(report.figures.mrr).toBe("30.7500");
    expect(report.pastDue.total).toBe(2);
    const late = report.pastDue.items.find((item) => item.subscriptionId === monthly.id);
    expect(late).toEqual({
      subscriptionId: monthly.id,
      productId: ids["Gauge Monthly"],
      productName: "Gauge Monthly",
      buyer: "Quinn",
      interval: "month",
      quantity: 1,
      // The renewal order's total, tax included (the test billing address's 5% VAT).
      amountDue: invoiced?.due?.total,
      dueAt: dueAt.toISOString(),
      remindersSent: 0,
      nextReminderAt: new Date(dueAt.getTime() + DAY_MS).toISOString(),
      endsAt: new Date(dueAt.getTime() + 7 * DAY_MS).toISOString(),
    });
    expect(late?.amountDue).toBe("9.4500");
    expect(report.live.items.find((item) => item.subscriptionId === monthly.id)).toMatchObject({
      status: "past_due",
      renewsAt: null,
      endsAt: late?.endsAt,
    });

    // The day-1 reminder goes out; the queue then names day 3.
    moveTo(new Date(dueAt.getTime() + DAY_MS + 60_000));
    expect((await renew()).reminded).toBeGreaterThanOrEqual(2);
    const queue = await adminReport(`?q=${encodeURIComponent("Gauge Monthly")}`);
    expect(queue.dunning.items).toHaveLength(1);
    expect(queue.dunning.items[0]).toEqual({
      subscriptionId: monthly.id,
      productId: ids["Gauge Monthly"],
      productName: "Gauge Monthly",
      buyerName: "Quinn Person",
      buyerEmail: quinnEmail,
      vendor: "Gauge",
      sellerEmail: sellerAEmail,
      interval: "month",
      quantity: 1,
      amountDue: "9.4500",
      dueAt: dueAt.toISOString(),
      remindersSent: 1,
      nextReminderAt: new Date(dueAt.getTime() + 3 * DAY_MS).toISOString(),
      endsAt: new Date(dueAt.getTime() + 7 * DAY_MS).toISOString(),
      renewalOrderId: invoiced?.due?.orderId,
      // No saved method: the buyer pays by hand, so there is nothing to charge again.
      chargedTo: null,
    });
    // The status filter narrows the live list only.
    const pastDueOnly = await adminReport(`?status=past_due&q=${encodeURIComponent(quinnEmail)}`);
    expect(pastDueOnly.live.items.every((item) => item.status === "past_due")).toBe(true);
    expect(pastDueOnly.live.items.map((item) => item.productName).sort()).toEqual([
      "Gauge Monthly",
      "Gauge Seats",
      "Other Monthly",
    ]);
    const activeOnly = await adminReport(`?status=active&q=${encodeURIComponent(quinnEmail)}`);
    expect(activeOnly.live.items.map((item) => item.productName)).toEqual(["Gauge Yearly"]);
    expect(activeOnly.dunning.total).toBe(3);
    // By subscription id.
    expect((await adminReport(`?q=${monthly.id}`)).dunning.items.map((item) => item.subscriptionId)).toEqual([
      monthly.id,
    ]);
  });

  test("admin Send reminder e-mails the buyer once, is audited and rate-limited; an active subscription has nothing to remind", async () => {
    const monthly = started["Gauge Monthly"] as Subscription;
    const subject = "Payment due: your Gauge Monthly subscription";
    const sent = (await mails(subject)).length;
    const asked = clock.now();
    const res = await admin.post(`/api/admin/subscriptions/${monthly.id}/remind`);
    expect(res.statusCode, res.body).toBe(200);
    const { sentTo, sentAt } = res.json() as { sentTo: string; sentAt: string };
    expect(sentTo).toBe(quinnEmail);
    expect(within(sentAt, asked)).toBe(true);
    await t.app.jobs.idle();
    const after = await mails(subject);
    expect(after).toHaveLength(sent + 1);
    expect(after.at(-1)?.to).toBe(quinnEmail);
    const audit = await auditOf(monthly.id);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      action: "update",
      actorEmail: "admin@stackbay.test",
      entityLabel: "Gauge Monthly",
    });
    expect(audit[0]?.changes.paymentReminderSentAt).toEqual({
      before: null,
      after: sentAt,
    });
    // The scheduled reminders are the job's own count: sending one by hand changes nothing there.
    const queue = await adminReport(`?q=${monthly.id}`);
    expect(queue.dunning.items[0]?.remindersSent).toBe(1);

    const yearly = await admin.post(`/api/admin/subscriptions/${started["Gauge Yearly"]?.id}/remind`);
    expect(yearly.statusCode).toBe(409);
    expect(yearly.json().code).toBe("RENEWAL_NOT_PAST_DUE");

    // Three an hour per subscription, then 429 until the hour has passed.
    expect((await admin.post(`/api/admin/subscriptions/${monthly.id}/remind`)).statusCode).toBe(200);
    expect((await admin.post(`/api/admin/subscriptions/${monthly.id}/remind`)).statusCode).toBe(200);
    const limited = await admin.post(`/api/admin/subscriptions/${monthly.id}/remind`);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe("RATE_LIMITED");
    await t.app.jobs.idle();
    expect(await mails(subject)).toHaveLength(sent + 3);
  });

  test("admin cancel ends it now: the renewal order cancelled, the keys revoked, the buyer told, audited; then 409", async () => {
    const seats = started["Gauge Seats"] as Subscription;
    expect(seats.licenseKeys).toHaveLength(3);
    const due = (await desk(quinn)).find((s) => s.id === seats.id)?.due;
    expect(due).not.toBeNull();
    const asked = clock.now();
    const res = await admin.post(`/api/admin/subscriptions/${seats.id}/cancel`);
    expect(res.statusCode, res.body).toBe(200);
    const { endedAt } = res.json() as { endedAt: string };
    expect(within(endedAt, asked)).toBe(true);
    expect(res.json()).toEqual({
      subscriptionId: seats.id,
      endedAt,
      cancelledRenewalOrderId: due?.orderId,
      revokedLicenses: 3,
    });

    const [row] = await t.db.select().from(subscriptions).where(eq(subscriptions.id, seats.id));
    expect(row).toMatchObject({ endReason: "cancelled", endedAt: new Date(endedAt) });
    const [renewal] = await t.db
      .select()
      .from(orders)
      .where(eq(orders.id, due?.orderId ?? ""));
    expect(renewal).toMatchObject({ paymentStatus: "failed", isPaid: false });
    expect(renewal?.cancelledAt).not.toBeNull();
    const keys = await t.db
      .select()
      .from(licenses)
      .where(eq(licenses.orderItemId, row?.orderItemId ?? ""));
    expect(keys.map((key) => key.status)).toEqual(["revoked", "revoked", "revoked"]);
    expect((await desk(quinn)).find((s) => s.id === seats.id)).toMatchObject({
      status: "ended",
      endReason: "cancelled",
      due: null,
      licenseKeys: [],
    });
    const pay = await quinn.post(`/api/orders/${due?.orderId}/payment`);
    expect(pay.json().code).toBe("ORDER_CANCELLED");
    await t.app.jobs.idle();
    expect((await mails("Your Gauge Seats subscription has been cancelled")).map((m) => m.to)).toEqual([
      quinnEmail,
    ]);

    const [audit] = await auditOf(seats.id);
    expect(audit).toMatchObject({
      action: "update",
      actorEmail: "admin@stackbay.test",
      entityLabel: "Gauge Seats",
    });
    expect(audit?.changes).toMatchObject({
      status: { before: "past_due", after: "ended" },
      endReason: { before: null, after: "cancelled" },
      unpaidRenewalOrderId: { before: due?.orderId, after: null },
      activeLicenses: { before: 3, after: 0 },
    });

    // Out of the queue and the live list; counted as churned this month.
    const report = await sellerReport(sellerA);
    expect(report.pastDue.items.map((item) => item.productName)).toEqual(["Gauge Monthly"]);
    expect(report.live.items.some((item) => item.subscriptionId === seats.id)).toBe(false);
    expect(report.figures).toMatchObject({
      endedThisMonth: 1,
      endedUnpaidThisMonth: 0,
      churnedMrr: "13.5000",
    });
    expect((await adminReport(`?q=${seats.id}`)).dunning.items).toEqual([]);

    for (const action of ["cancel", "remind"]) {
      const again = await admin.post(`/api/admin/subscriptions/${seats.id}/${action}`);
      expect(again.statusCode, action).toBe(409);
      expect(again.json().code).toBe("SUBSCRIPTION_ENDED");
    }
    expect(await auditOf(seats.id)).toHaveLength(1);
  });

  test("a malformed id is 400, an unknown one 404", async () => {
    for (const action of ["cancel", "remind"]) {
      const bad = await admin.post(`/api/admin/subscriptions/not-a-uuid/${action}`);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().code).toBe("VALIDATION_ERROR");
      const unknown = await admin.post(
        `/api/admin/subscriptions/00000000-0000-4000-8000-000000000000/${action}`,
      );
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().code).toBe("SUBSCRIPTION_NOT_FOUND");
    }
  });
});
