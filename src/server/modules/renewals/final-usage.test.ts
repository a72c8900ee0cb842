import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DAY_MS } from "#domain/dates";
import type { UsageBatchAnswer } from "#domain/metering";
import { computeTotals } from "#domain/money";
import type { PlanList } from "#domain/plan-schemas";
import type { SellerApiKeyIssued } from "#domain/seller-api";
import type { Subscription } from "#domain/subscription-schemas";
import { DEFAULT_RETRY_DAYS, USAGE_GRACE_MS } from "#domain/subscriptions";
import { user } from "#server/db/schema/auth";
import { products } from "#server/db/schema/catalog";
import { journalEntries } from "#server/db/schema/ledger";
import { orderItems, orders } from "#server/db/schema/orders";
import { payments } from "#server/db/schema/payments";
import { subscriptionRenewals, usagePeriods } from "#server/db/schema/subscriptions";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import type { AdjustableClock } from "#server/lib/clock";
import { paymentDepsOf } from "#server/modules/payments/service";
import { endedToBill } from "#server/modules/renewals/repository";
import { billFinalUse, RENEWAL_BATCH, runRenewals } from "#server/modules/renewals/service";
import { createTestApp } from "#server/test/app";
import { type createClient, createVerifiedAccount, signedInClient } from "#server/test/client";
import { unbalancedEntries } from "#server/test/ledger";
import { placeAndPay } from "#server/test/orders";
import { readOutbox } from "#server/test/outbox";
import { payOrder, saveTestMethod } from "#server/test/payments";

/**
 * The final bill of an ended metered subscription (decision 0029): the use of its last period, billed an
 * hour after the end on a usage-only order, taxed, booked and charged like a renewal, exactly once.
 */

type Client = ReturnType<typeof createClient>;

let t: Awaited<ReturnType<typeof createTestApp>>;
let clock: AdjustableClock;
let productId = "";
let planId = "";
let key = "";
let accounts = 0;

/** $29 a month, then per call: the first 1,000 at $0.004, the rest at $0.003. */
const tiers = [
  { upTo: 1000, unitPrice: "0.004" },
  { upTo: null, unitPrice: "0.003" },
];

beforeAll(async () => {
  t = await createTestApp({ seed: true });
  clock = t.app.clock as AdjustableClock;
  const seller = await signedInClient(t.app, "seller@stackbay.test", DEMO_PASSWORD);
  const [me] = await t.db.select({ id: user.id }).from(user).where(eq(user.email, "seller@stackbay.test"));
  const [made] = await t.db
    .insert(products)
    .values({
      name: "Final Bill Geocoder",
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
  planId = (plans.json() as PlanList).plans[0]?.id ?? "";
  const issued = await seller.post("/api/seller-api/keys", { name: "Final bills", scopes: ["usage:write"] });
  expect(issued.statusCode, issued.body).toBe(201);
  key = (issued.json() as SellerApiKeyIssued).secret;
});
afterAll(async () => {
  clock.reset();
  await t.close();
});

/** A buyer of their own with a saved card (a declining one with `card: "0341"`), subscribed to the plan. */
async function subscriber(card: "4242" | "0341" = "4242") {
  const email = `final-bill${++accounts}@stackbay.test`;
  const { password } = await createVerifiedAccount(t.app, t.dataDir, { email, firstName: "Fay" });
  const client = await signedInClient(t.app, email, password);
  await saveTestMethod(t.app, client, { card });
  const order = await placeAndPay(t.app, client, { email, items: [{ productId, price: 29, planId }] });
  const sub = await deskOf(client, order.id);
  return { client, email, sub };
}

async function deskOf(client: Client, orderId: string): Promise<Subscription> {
  const res = await client.get("/api/subscriptions");
  const found = (res.json() as { items: Subscription[] }).items.find((s) => s.orderId === orderId);
  if (!found) throw new Error(`no subscription from order ${orderId}`);
  return found;
}

let address = 0;
let n = 0;
async function report(subscriptionId: string, quantity: number, usedAt: Date) {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/seller/v1/usage/batch",
    remoteAddress: `10.79.0.${++address % 250}`,
    headers: { authorization: `Bearer ${key}` },
    payload: {
      records: [{ subscriptionId, quantity, usedAt: usedAt.toISOString(), idempotencyKey: `final-${++n}` }],
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as UsageBatchAnswer;
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

/** The final bills of a subscription, with their orders. */
async function finalBillsOf(subscriptionId: string) {
  return t.db
    .select({ claim: subscriptionRenewals, order: orders })
    .from(subscriptionRenewals)
    .innerJoin(orders, eq(orders.id, subscriptionRenewals.orderId))
    .where(
      and(eq(subscriptionRenewals.subscriptionId, subscriptionId), eq(subscriptionRenewals.final, true)),
    );
}
const linesOf = (orderId: string) =>
  t.db.select().from(orderItems).where(eq(orderItems.orderId, orderId)).orderBy(orderItems.productName);
const attemptsOf = (orderId: string) =>
  t.db.select().from(payments).where(eq(payments.orderId, orderId)).orderBy(payments.attempt);
const mailsTo = async (email: string, subject: string) =>
  (await readOutbox(t.dataDir)).filter((m) => m.to === email && m.subject.includes(subject));

describe("the final bill of a metered subscription that ends", () => {
  test("cancelled for its period's end: its last period's use, late records included, is invoiced an hour after the end with tax, booked and charged once; a second run makes nothing", async () => {
    const { client, email, sub } = await subscriber();
    const end = new Date(sub.paidThrough);
    expect((await report(sub.id, 1500, clock.now())).recorded).toBe(1);
    const cancel = await client.post(`/api/subscriptions/${sub.id}/cancel`);
    expect(cancel.statusCode, cancel.body).toBe(200);

    // Ended at its end; a late record inside the hour still counts, and nothing is billed yet.
    moveTo(new Date(end.getTime() + 10 * 60_000));
    await renew();
    expect((await report(sub.id, 500, new Date(end.getTime() - 1000))).recorded).toBe(1);
    expect(await finalBillsOf(sub.id)).toEqual([]);
    expect(await deskOf(client, sub.orderId)).toMatchObject({ status: "ended", due: null });

    moveTo(new Date(end.getTime() + USAGE_GRACE_MS + 60_000));
    const [first, second] = await Promise.all([renew(), renew()]);
    expect((first?.finalBills ?? 0) + (second?.finalBills ?? 0)).toBe(1);
    const [bill, ...more] = await finalBillsOf(sub.id);
    expect(more).toEqual([]);
    // 1,000 at $0.004 and 1,000 at $0.003: $7, no fixed fee, taxed at the first order's rate.
    const [origin] = await t.db.select().from(orders).where(eq(orders.id, sub.orderId));
    const totals = computeTotals([{ price: "7", quantity: 1 }], origin?.taxRate ?? "0");
    expect(bill?.order).toMatchObject({
      subtotal: totals.subtotal,
      tax: totals.tax,
      totalAmount: totals.total,
      isPaid: true,
      idempotencyKey: `usage:${sub.id}:${bill?.claim.periodIndex}`,
    });
    const lines = await linesOf(bill?.order.id ?? "");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ price: "7.0000", quantity: 1, tax: totals.lineTaxes[0] });
    expect(lines[0]?.productName).toContain("Usage: 2,000 calls");
    expect(await attemptsOf(bill?.order.id ?? "")).toEqual([
      expect.objectContaining({ state: "paid", attempt: 1 }),
    ]);
    // Booked as a sale in the ledger, balanced.
    const entries = await t.db
      .select()
      .from(journalEntries)
      .where(eq(journalEntries.orderId, bill?.order.id ?? ""));
    expect(entries.map((e) => e.kind)).toContain("sale");
    expect(await unbalancedEntries(t.db)).toEqual([]);
    // No new period, no revival, no fixed fee: the subscription stays ended, its period rated on the bill.
    const after = await deskOf(client, sub.orderId);
    expect(after).toMatchObject({ status: "ended", due: null, paidThrough: sub.paidThrough });
    const [period] = await t.db
      .select()
      .from(usagePeriods)
      .where(and(eq(usagePeriods.subscriptionId, sub.id), eq(usagePeriods.periodIndex, 0)));
    expect(period?.orderId).toBe(bill?.order.id);
    expect(await mailsTo(email, "Your last bill")).toHaveLength(1);

    // Runs again: nothing more, and use reported now is refused.
    await renew();
    moveTo(new Date(clock.now().getTime() + (DEFAULT_RETRY_DAYS[0] ?? 1) * DAY_MS));
    await renew();
    expect(await finalBillsOf(sub.id)).toHaveLength(1);
    expect(await attemptsOf(bill?.order.id ?? "")).toHaveLength(1);
    expect((await report(sub.id, 5, new Date(end.getTime() - 1000))).results[0]?.code).toBe("USAGE_TOO_LATE");
  });

  test("no use, or use corrected to nothing: no bill", async () => {
    const quiet = await subscriber();
    const corrected = await subscriber();
    await report(corrected.sub.id, 10, clock.now());
    const undo = await t.app.inject({
      method: "POST",
      url: "/api/seller/v1/usage/batch",
      remoteAddress: "10.79.1.1",
      headers: { authorization: `Bearer ${key}` },
      payload: {
        records: [
          {
            subscriptionId: corrected.sub.id,
            quantity: -10,
            reason: "test calls",
            usedAt: clock.now().toISOString(),
            idempotencyKey: `final-undo-${++n}`,
          },
        ],
      },
    });
    expect((undo.json() as UsageBatchAnswer).recorded).toBe(1);
    for (const { client, sub } of [quiet, corrected])
      expect((await client.post(`/api/subscriptions/${sub.id}/cancel`)).statusCode).toBe(200);
    moveTo(new Date(new Date(quiet.sub.paidThrough).getTime() + USAGE_GRACE_MS + 60_000));
    moveTo(new Date(new Date(corrected.sub.paidThrough).getTime() + USAGE_GRACE_MS + 60_000));
    await renew();
    expect(await finalBillsOf(quiet.sub.id)).toEqual([]);
    expect(await finalBillsOf(corrected.sub.id)).toEqual([]);
    // The corrected period is closed without an order, and never picked again.
    const picked = await t.db.transaction((tx) => endedToBill(tx, clock.now(), RENEWAL_BATCH));
    expect(picked.map((s) => s.id)).not.toContain(corrected.sub.id);
    await renew();
    expect(await finalBillsOf(corrected.sub.id)).toEqual([]);
  });

  test("a job that stops after making the bill and before charging it: the next passes charge it once", async () => {
    const { client, sub } = await subscriber();
    await report(sub.id, 100, clock.now());
    expect((await client.post(`/api/subscriptions/${sub.id}/cancel`)).statusCode).toBe(200);
    const end = new Date(sub.paidThrough);
    moveTo(new Date(end.getTime() + 10 * 60_000));
    await renew();
    moveTo(new Date(end.getTime() + USAGE_GRACE_MS + 60_000));
    // Only the bill's step, as a pass killed before its charges would leave it.
    const made = await t.db.transaction(async (tx) =>
      billFinalUse(
        paymentDepsOf(t.app),
        tx,
        await endedToBill(tx, new Date(clock.now().getTime() - USAGE_GRACE_MS), RENEWAL_BATCH),
        "https://stackbay.test/dashboard/subscriptions",
        clock.now(),
      ),
    );
    expect(made).toBeGreaterThanOrEqual(1);
    const [bill] = await finalBillsOf(sub.id);
    expect(bill?.order.paymentStatus).toBe("pending");
    expect(await attemptsOf(bill?.order.id ?? "")).toEqual([]);
    await Promise.all([renew(), renew()]);
    await renew();
    expect(await finalBillsOf(sub.id)).toHaveLength(1);
    expect(await attemptsOf(bill?.order.id ?? "")).toEqual([expect.objectContaining({ state: "paid" })]);
    expect(await unbalancedEntries(t.db)).toEqual([]);
  });

  test("a declined charge leaves the bill unpaid and payable from the desk; reminders on the retry days; paying it revives nothing", async () => {
    const { client, email, sub } = await subscriber("0341");
    await report(sub.id, 250, clock.now());
    expect((await client.post(`/api/subscriptions/${sub.id}/cancel`)).statusCode).toBe(200);
    const end = new Date(sub.paidThrough);
    moveTo(new Date(end.getTime() + USAGE_GRACE_MS + 60_000));
    await renew();
    const [bill] = await finalBillsOf(sub.id);
    expect(bill?.order).toMatchObject({ paymentStatus: "failed", isPaid: false, cancelledAt: null });
    const desk = await deskOf(client, sub.orderId);
    expect(desk).toMatchObject({
      status: "ended",
      due: { orderId: bill?.order.id, total: bill?.order.totalAmount },
    });
    const dueAt = bill?.claim.dueAt ?? clock.now();
    moveTo(new Date(dueAt.getTime() + (DEFAULT_RETRY_DAYS[0] ?? 1) * DAY_MS + 60_000));
    await renew();
    expect(await mailsTo(email, "Payment due: your last bill")).toHaveLength(1);
    expect(await attemptsOf(bill?.order.id ?? "")).toHaveLength(2);
    // Paid by hand on the provider's page: the order is paid, the subscription stays ended.
    const paid = await payOrder(t.app, client, bill?.order.id ?? "");
    expect(paid.isPaid).toBe(true);
    expect(await deskOf(client, sub.orderId)).toMatchObject({ status: "ended", due: null });
    // After the last retry day nothing ends and nothing is charged again.
    moveTo(new Date(dueAt.getTime() + (DEFAULT_RETRY_DAYS.at(-1) ?? 7) * DAY_MS + 60_000));
    await renew();
    expect(await finalBillsOf(sub.id)).toHaveLength(1);
    expect(await unbalancedEntries(t.db)).toEqual([]);
  });

  test("cancelled at once while past due: the cancelled renewal's use and the use up to the end are billed on one order", async () => {
    const { client, sub } = await subscriber("0341");
    await report(sub.id, 1000, clock.now());
    const end = new Date(sub.paidThrough);
    // The period's renewal (fee and use) is invoiced after the grace and declined: past due.
    moveTo(new Date(end.getTime() + USAGE_GRACE_MS + 60_000));
    await renew();
    const pastDue = await deskOf(client, sub.orderId);
    expect(pastDue.status).toBe("past_due");
    const renewalOrder = pastDue.due?.orderId ?? "";
    expect(renewalOrder).not.toBe("");
    await report(sub.id, 200, clock.now());
    const cancel = await client.post(`/api/subscriptions/${sub.id}/cancel`);
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(cancel.json()).toMatchObject({ subscription: { status: "ended" } });
    const [cancelled] = await t.db.select().from(orders).where(eq(orders.id, renewalOrder));
    expect(cancelled?.cancelledAt).not.toBeNull();
    moveTo(new Date(clock.now().getTime() + USAGE_GRACE_MS + 60_000));
    await renew();
    const [bill, ...more] = await finalBillsOf(sub.id);
    expect(more).toEqual([]);
    const lines = await linesOf(bill?.order.id ?? "");
    // 1,000 calls at $0.004 in the paid period, 200 in the unpaid one until the cancellation.
    expect(lines.map((l) => l.price).sort()).toEqual(["0.8000", "4.0000"]);
    expect(lines.every((l) => l.productName.includes("Usage:"))).toBe(true);
    const rated = await t.db
      .select({ orderId: usagePeriods.orderId })
      .from(usagePeriods)
      .where(inArray(usagePeriods.subscriptionId, [sub.id]));
    expect(rated.map((r) => r.orderId)).toEqual([bill?.order.id, bill?.order.id]);
  });

  test("ended unpaid after its last reminder: the unpaid renewal stays the bill of its period's use, and the final bill has only the use after it", async () => {
    const { client, sub } = await subscriber("0341");
    await report(sub.id, 1000, clock.now());
    const end = new Date(sub.paidThrough);
    moveTo(new Date(end.getTime() + USAGE_GRACE_MS + 60_000));
    await renew();
    const renewalOrder = (await deskOf(client, sub.orderId)).due?.orderId ?? "";
    expect(renewalOrder).not.toBe("");
    await report(sub.id, 200, clock.now());
    moveTo(new Date(end.getTime() + (DEFAULT_RETRY_DAYS.at(-1) ?? 7) * DAY_MS + 60_000));
    await renew();
    expect(await deskOf(client, sub.orderId)).toMatchObject({ status: "ended", endReason: "unpaid" });
    moveTo(new Date(clock.now().getTime() + USAGE_GRACE_MS + 60_000));
    await renew();
    const [bill, ...more] = await finalBillsOf(sub.id);
    expect(more).toEqual([]);
    expect((await linesOf(bill?.order.id ?? "")).map((l) => l.price)).toEqual(["0.8000"]);
    const periods = await t.db
      .select({ periodIndex: usagePeriods.periodIndex, orderId: usagePeriods.orderId })
      .from(usagePeriods)
      .where(eq(usagePeriods.subscriptionId, sub.id))
      .orderBy(usagePeriods.periodIndex);
    expect(periods).toEqual([
      { periodIndex: 0, orderId: renewalOrder },
      { periodIndex: 1, orderId: bill?.order.id },
    ]);
  });
});
