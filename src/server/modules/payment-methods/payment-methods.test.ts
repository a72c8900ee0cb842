import { randomUUID } from "node:crypto";
import { and, eq, isNotNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { addBusinessDays } from "#domain/business-days";
import { DAY_MS } from "#domain/dates";
import type { PaymentMethodList } from "#domain/payment-methods";
import type { Subscription } from "#domain/subscription-schemas";
import { DEFAULT_RETRY_DAYS, RENEWAL_INVOICE_LEAD_DAYS } from "#domain/subscriptions";
import { auditLog } from "#server/db/schema/audit";
import { products } from "#server/db/schema/catalog";
import { orders } from "#server/db/schema/orders";
import { paymentMethods } from "#server/db/schema/payment-methods";
import { payments, testPaymentSessions } from "#server/db/schema/payments";
import { productPlans, subscriptionRenewals } from "#server/db/schema/subscriptions";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import type { AdjustableClock } from "#server/lib/clock";
import { paymentDepsOf, reconcilePayments } from "#server/modules/payments/service";
import { runRenewals } from "#server/modules/renewals/service";
import { createTestApp } from "#server/test/app";
import { type createClient, createVerifiedAccount, signedInClient } from "#server/test/client";
import { unbalancedEntries } from "#server/test/ledger";
import { orderBody, placeAndPay } from "#server/test/orders";
import { readOutbox } from "#server/test/outbox";
import { payOrder, saveTestMethod } from "#server/test/payments";

type Client = ReturnType<typeof createClient>;
const HOUR_MS = 60 * 60_000;

let t: Awaited<ReturnType<typeof createTestApp>>;
let clock: AdjustableClock;
let monthly = "";
let accounts = 0;

beforeAll(async () => {
  t = await createTestApp({ seed: true });
  clock = t.app.clock as AdjustableClock;
  const [made] = await t.db
    .insert(products)
    .values({ name: "Relay Uptime", category: "saas", price: "10", pricingUnit: "month", vendor: "Relay" })
    .returning({ id: products.id });
  monthly = made?.id ?? "";
});
afterAll(async () => {
  clock.reset();
  await t.close();
});

/** A buyer of their own: payment starts are rate-limited per account. */
async function newBuyer(): Promise<{ client: Client; email: string }> {
  const email = `saver${++accounts}@stackbay.test`;
  const { password } = await createVerifiedAccount(t.app, t.dataDir, { email, firstName: "Sam" });
  return { client: await signedInClient(t.app, email, password), email };
}
async function methods(client: Client): Promise<PaymentMethodList> {
  const res = await client.get("/api/payment-methods");
  expect(res.statusCode).toBe(200);
  return res.json() as PaymentMethodList;
}
async function subscriptionOf(client: Client, orderId: string): Promise<Subscription> {
  const res = await client.get("/api/subscriptions");
  const found = (res.json() as { items: Subscription[] }).items.find((s) => s.orderId === orderId);
  if (!found) throw new Error(`no subscription from order ${orderId}`);
  return found;
}
async function subscribe(client: Client, email: string, country = "United Arab Emirates") {
  const order = await placeAndPay(t.app, client, {
    email,
    country,
    items: [{ productId: monthly, price: 10 }],
  });
  return subscriptionOf(client, order.id);
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
async function attemptsOf(orderId: string) {
  return t.db.select().from(payments).where(eq(payments.orderId, orderId)).orderBy(payments.attempt);
}
const mailsTo = async (email: string, subject: string) =>
  (await readOutbox(t.dataDir)).filter((m) => m.to === email && m.subject.includes(subject));

describe("saving payment methods", () => {
  test("a card saved on the provider's page is listed by brand and last four digits, and the first saved is the default", async () => {
    const { client } = await newBuyer();
    expect((await methods(client)).methods).toEqual([]);
    const card = await saveTestMethod(t.app, client, { card: "4242" });
    expect(card).toMatchObject({ kind: "card", label: "Visa •••• 4242", isDefault: true, declined: null });
    expect(card.expires).toMatch(/^12\/\d{4}$/);
    const paypal = await saveTestMethod(t.app, client, { paypal: true });
    expect(paypal).toMatchObject({ kind: "paypal", isDefault: false });
    expect(paypal.label).toBe("PayPal (b•••@paypal.test)");
    const list = await methods(client);
    expect(list.testMode).toBe(true);
    // What renews on each: this buyer's one subscription, on the default; none on PayPal.
    await subscribe(client, (await client.get("/api/me")).json().user.email);
    expect((await methods(client)).methods.map((m) => m.subscriptions)).toEqual([1, 0]);
    expect(list.methods.map((m) => m.id)).toEqual([card.id, paypal.id]);
    // Nothing of a card is stored beyond what may be shown.
    const [row] = await t.db.select().from(paymentMethods).where(eq(paymentMethods.id, card.id));
    expect(row?.methodRef).toMatch(/^tpm_4242_/);
    expect(row?.fingerprint).toBe("tfp_4242");
  });

  test("the default moves, and removing the default passes it to the newest method left", async () => {
    const { client } = await newBuyer();
    const card = await saveTestMethod(t.app, client, { card: "4242" });
    const other = await saveTestMethod(t.app, client, { card: "4444" });
    let res = await client.post(`/api/payment-methods/${other.id}/default`);
    expect(res.statusCode).toBe(200);
    expect((res.json() as PaymentMethodList).methods.map((m) => [m.label, m.isDefault])).toEqual([
      ["Mastercard •••• 4444", true],
      ["Visa •••• 4242", false],
    ]);
    res = await client.request("DELETE", `/api/payment-methods/${other.id}`);
    expect(res.statusCode).toBe(200);
    expect((res.json() as PaymentMethodList).methods).toEqual([
      expect.objectContaining({ id: card.id, isDefault: true }),
    ]);
  });

  test("a bank transfer is added at once, once", async () => {
    const { client } = await newBuyer();
    const first = await client.post("/api/payment-methods/bank-transfer");
    expect(first.statusCode).toBe(200);
    const again = await client.post("/api/payment-methods/bank-transfer");
    expect(again.json()).toEqual(first.json());
    expect(first.json()).toMatchObject({
      method: { kind: "bank_transfer", label: "Bank transfer", isDefault: true },
    });
  });

  test("a setup cancelled on the provider's page saves nothing", async () => {
    const { client } = await newBuyer();
    const started = await client.post("/api/payment-methods/setups", { kind: "card", returnTo: "checkout" });
    const redirectUrl = (started.json() as { redirectUrl: string }).redirectUrl;
    const ref = new URL(redirectUrl).pathname.split("/").at(-1);
    const choice = await client.post(`/api/payment-methods/test/setups/${ref}/choice`, { choice: "cancel" });
    const back = new URL((choice.json() as { redirectUrl: string }).redirectUrl);
    expect(back.pathname).toBe("/checkout");
    expect(back.searchParams.get("cancelled")).toBe("1");
    const done = await client.post(`/api/payment-methods/setups/${back.searchParams.get("setup")}/complete`);
    expect(done.json()).toMatchObject({ state: "cancelled", method: null });
    expect((await methods(client)).methods).toEqual([]);
  });

  test("someone else's method, setup or setup page is as absent as none", async () => {
    const owner = await newBuyer();
    const other = await newBuyer();
    const card = await saveTestMethod(t.app, owner.client);
    expect((await other.client.post(`/api/payment-methods/${card.id}/default`)).statusCode).toBe(404);
    expect((await other.client.request("DELETE", `/api/payment-methods/${card.id}`)).statusCode).toBe(404);
    const started = await owner.client.post("/api/payment-methods/setups", { kind: "card" });
    const url = new URL((started.json() as { redirectUrl: string }).redirectUrl);
    const ref = url.pathname.split("/").at(-1);
    expect((await other.client.get(`/api/payment-methods/test/setups/${ref}`)).statusCode).toBe(404);
    const choice = await other.client.post(`/api/payment-methods/test/setups/${ref}/choice`, {
      choice: "save",
    });
    expect(choice.statusCode).toBe(404);
    const sub = await subscribe(other.client, other.email);
    const put = await other.client.request("PUT", `/api/subscriptions/${sub.id}/payment-method`, {
      paymentMethodId: card.id,
    });
    expect(put.statusCode).toBe(404);
    expect(put.json()).toMatchObject({ code: "PAYMENT_METHOD_NOT_FOUND" });
    const theirs = await owner.client.request("PUT", `/api/subscriptions/${sub.id}/payment-method`, {
      paymentMethodId: null,
    });
    expect(theirs.statusCode).toBe(404);
    // Bad input: a method id that is no id.
    const bad = await other.client.request("PUT", `/api/subscriptions/${sub.id}/payment-method`, {
      paymentMethodId: "x",
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe("renewals charged off-session on the saved method", () => {
  test("a renewal is charged on its due date, once, without the buyer; the e-mail says which card it goes to", async () => {
    const { client, email } = await newBuyer();
    const sub = await subscribe(client, email);
    const card = await saveTestMethod(t.app, client, { card: "4242" });
    const dueAt = new Date(sub.paidThrough);
    moveTo(new Date(dueAt.getTime() - RENEWAL_INVOICE_LEAD_DAYS.month * DAY_MS + 60_000));
    await renew();
    const [due] = await mailsTo(email, "renews on");
    expect(due?.body).toContain("Visa •••• 4242");
    const invoiced = await subscriptionOf(client, sub.orderId);
    expect(invoiced.due).not.toBeNull();
    const orderId = invoiced.due?.orderId ?? "";
    expect(await attemptsOf(orderId)).toEqual([]);

    moveTo(new Date(dueAt.getTime() + 60_000));
    await Promise.all([renew(), renew()]);
    const attempts = await attemptsOf(orderId);
    expect(attempts).toEqual([
      expect.objectContaining({ state: "paid", savedMethodId: card.id, attempt: 1 }),
    ]);
    const after = await subscriptionOf(client, sub.orderId);
    expect(after).toMatchObject({ status: "active", due: null });
    expect(new Date(after.paidThrough).getTime()).toBeGreaterThan(dueAt.getTime());
    await renew();
    expect(await attemptsOf(orderId)).toHaveLength(1);
    expect(await unbalancedEntries(t.db)).toEqual([]);
    expect(await mailsTo(email, "Payment due")).toEqual([]);
  });

  test("a soft decline is retried on each retry day, each with a reminder, and the subscription ends after the last", async () => {
    const { client, email } = await newBuyer();
    const sub = await subscribe(client, email);
    await saveTestMethod(t.app, client, { card: "0341" });
    const dueAt = new Date(sub.paidThrough);
    moveTo(new Date(dueAt.getTime() - DAY_MS));
    await renew();
    const orderId = (await subscriptionOf(client, sub.orderId)).due?.orderId ?? "";
    moveTo(new Date(dueAt.getTime() + 60_000));
    await renew();
    expect(await attemptsOf(orderId)).toEqual([expect.objectContaining({ state: "failed" })]);
    for (const [n, day] of DEFAULT_RETRY_DAYS.entries()) {
      moveTo(new Date(dueAt.getTime() + day * DAY_MS - 60_000));
      await renew();
      expect(await attemptsOf(orderId)).toHaveLength(n + 1);
      moveTo(new Date(dueAt.getTime() + day * DAY_MS + 60_000));
      await renew();
      expect(await attemptsOf(orderId)).toHaveLength(n + 2);
      // Nothing more on the same day.
      await renew();
      expect(await attemptsOf(orderId)).toHaveLength(n + 2);
    }
    const attempts = await attemptsOf(orderId);
    expect(attempts.every((a) => a.state === "failed" && a.reason?.includes("insufficient funds"))).toBe(
      true,
    );
    expect(await mailsTo(email, "Payment due")).toHaveLength(DEFAULT_RETRY_DAYS.length - 1);
    expect(await subscriptionOf(client, sub.orderId)).toMatchObject({ status: "ended", endReason: "unpaid" });
  });

  test("a hard decline is not retried: the card is marked, the buyer is asked at once, and paying from the desk restores it", async () => {
    const { client, email } = await newBuyer();
    const sub = await subscribe(client, email);
    const card = await saveTestMethod(t.app, client, { card: "9979" });
    const dueAt = new Date(sub.paidThrough);
    moveTo(new Date(dueAt.getTime() - DAY_MS));
    await renew();
    const orderId = (await subscriptionOf(client, sub.orderId)).due?.orderId ?? "";
    moveTo(new Date(dueAt.getTime() + 60_000));
    await renew();
    const [asked] = await mailsTo(email, "Action needed");
    expect(asked?.body).toContain("Visa •••• 9979");
    expect(asked?.body).toContain("reported stolen");
    expect((await methods(client)).methods[0]).toMatchObject({
      id: card.id,
      declined: expect.stringContaining("stolen"),
    });
    moveTo(new Date(dueAt.getTime() + (DEFAULT_RETRY_DAYS[1] ?? 3) * DAY_MS + 60_000));
    await renew();
    expect(await attemptsOf(orderId)).toHaveLength(1);
    expect(await subscriptionOf(client, sub.orderId)).toMatchObject({ status: "past_due" });
    // The buyer pays the renewal on the payment page.
    await payOrder(t.app, client, orderId, "pay");
    expect(await subscriptionOf(client, sub.orderId)).toMatchObject({ status: "active", due: null });
  });

  test("a subscription's own method is charged rather than the default", async () => {
    const { client, email } = await newBuyer();
    const sub = await subscribe(client, email);
    await saveTestMethod(t.app, client, { card: "0341" });
    const paypal = await saveTestMethod(t.app, client, { paypal: true });
    const put = await client.request("PUT", `/api/subscriptions/${sub.id}/payment-method`, {
      paymentMethodId: paypal.id,
    });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({
      subscription: { paymentMethod: { id: paypal.id, label: paypal.label } },
    });
    const dueAt = new Date(sub.paidThrough);
    moveTo(new Date(dueAt.getTime() - DAY_MS));
    await renew();
    const renewal = (await subscriptionOf(client, sub.orderId)).due?.orderId ?? "";
    const [order] = await t.db.select().from(orders).where(eq(orders.id, renewal));
    expect(order?.paymentMethod).toBe("paypal");
    moveTo(new Date(dueAt.getTime() + 60_000));
    await renew();
    expect(await attemptsOf(renewal)).toEqual([
      expect.objectContaining({ savedMethodId: paypal.id, state: "paid" }),
    ]);
  });

  test("India: the pre-debit notice goes out with the invoice, and a charge never comes sooner than 24 hours after it", async () => {
    const { client, email } = await newBuyer();
    const sub = await subscribe(client, email, "India");
    const dueAt = new Date(sub.paidThrough);
    // Invoiced before any card is saved: no notice, nothing to charge.
    moveTo(new Date(dueAt.getTime() - 2 * DAY_MS));
    await renew();
    expect(await mailsTo(email, "Pre-debit notice")).toEqual([]);
    const orderId = (await subscriptionOf(client, sub.orderId)).due?.orderId ?? "";
    // The card is saved two hours before the due date: the notice goes now, the charge a day later.
    moveTo(new Date(dueAt.getTime() - 2 * HOUR_MS));
    await saveTestMethod(t.app, client, { card: "4242" });
    const before = clock.now();
    await renew();
    const [notice] = await mailsTo(email, "Pre-debit notice");
    expect(notice?.body).toContain("Visa •••• 4242");
    // The moment the notice was recorded (the clock runs on while the pass works).
    const [claim] = await t.db
      .select()
      .from(subscriptionRenewals)
      .where(
        and(eq(subscriptionRenewals.orderId, orderId), isNotNull(subscriptionRenewals.preDebitNoticeAt)),
      );
    const noticeAt = claim?.preDebitNoticeAt ?? new Date(0);
    expect(noticeAt.getTime()).toBeGreaterThanOrEqual(before.getTime());
    moveTo(new Date(dueAt.getTime() + 60_000));
    await renew();
    expect(await attemptsOf(orderId)).toEqual([]);
    moveTo(new Date(noticeAt.getTime() + 24 * HOUR_MS - 60_000));
    await renew();
    expect(await attemptsOf(orderId)).toEqual([]);
    moveTo(new Date(noticeAt.getTime() + 24 * HOUR_MS));
    await renew();
    expect(await attemptsOf(orderId)).toEqual([expect.objectContaining({ state: "paid" })]);
    const [attempt] = await attemptsOf(orderId);
    expect(attempt?.createdAt.getTime()).toBeGreaterThanOrEqual(noticeAt.getTime() + 24 * HOUR_MS);
    expect(await mailsTo(email, "Pre-debit notice")).toHaveLength(1);
  });

  test("a crash between opening the attempt and asking the provider: the attempt is sent again with its key, and charged once", async () => {
    const { client, email } = await newBuyer();
    const sub = await subscribe(client, email);
    const card = await saveTestMethod(t.app, client, { card: "4242" });
    const dueAt = new Date(sub.paidThrough);
    moveTo(new Date(dueAt.getTime() - DAY_MS));
    await renew();
    const orderId = (await subscriptionOf(client, sub.orderId)).due?.orderId ?? "";
    // The provider charged, but its answer was lost with the process: the attempt has no reference.
    const [order] = await t.db.select().from(orders).where(eq(orders.id, orderId));
    const [attempt] = await t.db
      .insert(payments)
      .values({
        orderId,
        provider: "test",
        attempt: 1,
        amountCents: 1000,
        savedMethodId: card.id,
        createdAt: clock.now(),
      })
      .returning();
    expect(order?.paymentStatus).toBe("pending");
    await t.app.payments.test?.chargeSaved({
      orderId,
      idempotencyKey: `${orderId}:1`,
      amountCents: attempt?.amountCents ?? 0,
      description: "lost answer",
      customerRef: "tcus_x",
      methodRef:
        (await t.db.select().from(paymentMethods).where(eq(paymentMethods.id, card.id)))[0]?.methodRef ?? "",
    });
    moveTo(new Date(clock.now().getTime() + 2 * 60_000));
    // Reconciliation (every minute) sends it again with the same key: the provider answers its charge.
    expect(await reconcilePayments(paymentDepsOf(t.app), clock.now())).toMatchObject({ resumed: 1 });
    const sessions = await t.db
      .select()
      .from(testPaymentSessions)
      .where(eq(testPaymentSessions.orderId, orderId));
    expect(sessions).toHaveLength(1);
    expect(await attemptsOf(orderId)).toEqual([expect.objectContaining({ state: "paid" })]);
    expect(await subscriptionOf(client, sub.orderId)).toMatchObject({ due: null, status: "active" });
  });
});

describe("saved methods at checkout, for upgrades and to start again", () => {
  let trialProduct = "";
  let trialPlan = "";
  beforeAll(async () => {
    const [made] = await t.db
      .insert(products)
      .values({
        name: "Keel Tracing",
        category: "saas",
        price: "20",
        pricingUnit: "user_month",
        vendor: "Keel",
      })
      .returning({ id: products.id });
    trialProduct = made?.id ?? "";
    const [plan] = await t.db
      .insert(productPlans)
      .values({
        productId: trialProduct,
        name: "Team",
        interval: "month",
        price: "20",
        perSeat: true,
        minSeats: 1,
        maxSeats: 50,
        trialDays: 14,
        trialNeedsCard: true,
      })
      .returning({ id: productPlans.id });
    trialPlan = plan?.id ?? "";
  });

  const trialLine = () => ({ productId: trialProduct, price: 20, planId: trialPlan, trial: true });

  test("a trial that needs a card: refused without one, started with one, which then pays its first period; one trial per card across accounts", async () => {
    const first = await newBuyer();
    let res = await first.client.post("/api/orders", orderBody({ email: first.email, items: [trialLine()] }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: "TRIAL_NEEDS_CARD" });
    const paypal = await saveTestMethod(t.app, first.client, { paypal: true });
    res = await first.client.post(
      "/api/orders",
      orderBody({ email: first.email, items: [trialLine()], savedMethodId: paypal.id }),
    );
    expect(res.json()).toMatchObject({ code: "TRIAL_NEEDS_CARD" });
    const card = await saveTestMethod(t.app, first.client, { card: "4444" });
    res = await first.client.post(
      "/api/orders",
      orderBody({ email: first.email, items: [trialLine()], savedMethodId: card.id }),
    );
    expect(res.statusCode, res.body).toBe(201);
    const trial = await subscriptionOf(first.client, (res.json() as { orderId: string }).orderId);
    expect(trial).toMatchObject({ status: "trialing", paymentMethod: { id: card.id, chosen: true } });

    // The same card on another account gets no second trial of the product.
    const second = await newBuyer();
    const same = await saveTestMethod(t.app, second.client, { card: "4444" });
    res = await second.client.post(
      "/api/orders",
      orderBody({ email: second.email, items: [trialLine()], savedMethodId: same.id }),
    );
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: "TRIAL_USED", details: { productIds: [trialProduct] } });
    // Someone else's method is refused as unknown.
    res = await second.client.post(
      "/api/orders",
      orderBody({ email: second.email, items: [trialLine()], savedMethodId: card.id }),
    );
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: "PAYMENT_METHOD_NOT_FOUND" });

    // The trial converts by charging the card when it ends.
    const endsAt = new Date(trial.trialEndsAt ?? 0);
    moveTo(new Date(endsAt.getTime() - DAY_MS));
    await renew();
    const orderId = (await subscriptionOf(first.client, trial.orderId)).due?.orderId ?? "";
    moveTo(new Date(endsAt.getTime() + 60_000));
    await renew();
    expect(await attemptsOf(orderId)).toEqual([
      expect.objectContaining({ state: "paid", savedMethodId: card.id }),
    ]);
    expect(await subscriptionOf(first.client, trial.orderId)).toMatchObject({ status: "active" });
  });

  test("an upgrade is charged on the saved card at once; a declined card leaves its order to pay", async () => {
    const { client, email } = await newBuyer();
    const order = await placeAndPay(t.app, client, {
      email,
      items: [{ productId: trialProduct, price: 20, planId: trialPlan, quantity: 2 }],
    });
    const sub = await subscriptionOf(client, order.id);
    await saveTestMethod(t.app, client, { card: "4242" });
    const shown = (
      await client.post(`/api/subscriptions/${sub.id}/change/preview`, { planId: trialPlan, seats: 5 })
    ).json() as { planId: string; seats: number; pricedAt: string; token: string; dueTotal: string };
    const res = await client.post(`/api/subscriptions/${sub.id}/change`, shown);
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json() as {
      subscription: Subscription;
      change: { status: string; charged: string; orderId: string };
    };
    expect(answer.change).toMatchObject({ status: "applied", charged: "paid" });
    expect(answer.subscription.quantity).toBe(5);
    const [attempt] = await attemptsOf(answer.change.orderId);
    expect(attempt?.amountCents).toBe(Math.round(Number(shown.dueTotal) * 100));
    expect(await unbalancedEntries(t.db)).toEqual([]);

    const declined = await newBuyer();
    const theirs = await placeAndPay(t.app, declined.client, {
      email: declined.email,
      items: [{ productId: trialProduct, price: 20, planId: trialPlan, quantity: 2 }],
    });
    const other = await subscriptionOf(declined.client, theirs.id);
    await saveTestMethod(t.app, declined.client, { card: "0341" });
    const priced = (
      await declined.client.post(`/api/subscriptions/${other.id}/change/preview`, {
        planId: trialPlan,
        seats: 3,
      })
    ).json() as object;
    const refused = await declined.client.post(`/api/subscriptions/${other.id}/change`, priced);
    expect(refused.json()).toMatchObject({
      change: {
        status: "awaiting_payment",
        charged: "declined",
        declineReason: expect.stringContaining("insufficient"),
      },
      subscription: { quantity: 2, pendingChange: { status: "awaiting_payment" } },
    });
  });

  test("an ended subscription starts again in one step: charged on its card, the same order if asked twice; a live one is refused", async () => {
    const { client, email } = await newBuyer();
    const sub = await subscribe(client, email);
    expect((await client.post(`/api/subscriptions/${sub.id}/restart`)).json()).toMatchObject({
      code: "SUBSCRIPTION_LIVE",
    });
    await saveTestMethod(t.app, client, { card: "4242" });
    expect((await client.post(`/api/subscriptions/${sub.id}/cancel`)).statusCode).toBe(200);
    moveTo(new Date(new Date(sub.paidThrough).getTime() + 60_000));
    await renew();
    expect(await subscriptionOf(client, sub.orderId)).toMatchObject({ status: "ended" });
    const stranger = await newBuyer();
    expect((await stranger.client.post(`/api/subscriptions/${sub.id}/restart`)).statusCode).toBe(404);

    const res = await client.post(`/api/subscriptions/${sub.id}/restart`);
    expect(res.statusCode, res.body).toBe(200);
    const { orderId, redirectUrl } = res.json() as { orderId: string; redirectUrl: string };
    expect(new URL(redirectUrl).pathname).toBe("/checkout/complete");
    const again = await client.post(`/api/subscriptions/${sub.id}/restart`);
    expect((again.json() as { orderId: string }).orderId).toBe(orderId);
    const started = await subscriptionOf(client, orderId);
    expect(started).toMatchObject({ status: "active", quantity: 1, productId: monthly });
    expect(await attemptsOf(orderId)).toEqual([expect.objectContaining({ state: "paid" })]);
  });

  test("without a saved method, starting again sends the buyer to pay", async () => {
    const { client, email } = await newBuyer();
    const sub = await subscribe(client, email);
    expect((await client.post(`/api/subscriptions/${sub.id}/cancel`)).statusCode).toBe(200);
    moveTo(new Date(new Date(sub.paidThrough).getTime() + 60_000));
    await renew();
    const res = await client.post(`/api/subscriptions/${sub.id}/restart`);
    expect(res.statusCode, res.body).toBe(200);
    expect(new URL((res.json() as { redirectUrl: string }).redirectUrl).pathname).toMatch(/^\/pay\/test\//);
  });
});

describe("an admin retries a past-due renewal's charge", () => {
  test("declined again on the same card; paid once the buyer makes a good card the default; audited; a buyer may not", async () => {
    const admin = await signedInClient(t.app, "admin@stackbay.test", DEMO_PASSWORD);
    const { client, email } = await newBuyer();
    const sub = await subscribe(client, email);
    const retry = () => admin.post(`/api/admin/subscriptions/${sub.id}/retry`);
    const dueAt = new Date(sub.paidThrough);
    moveTo(new Date(dueAt.getTime() - DAY_MS));
    await renew();
    moveTo(new Date(dueAt.getTime() + 60_000));
    await renew();
    // Past due with no saved method: nothing to charge.
    expect((await retry()).json()).toMatchObject({ code: "PAYMENT_METHOD_NOT_FOUND" });
    expect((await client.post(`/api/admin/subscriptions/${randomUUID()}/retry`)).statusCode).toBe(403);
    await saveTestMethod(t.app, client, { card: "0341" });
    const report = (await admin.get(`/api/admin/subscriptions?q=${encodeURIComponent(email)}`)).json() as {
      dunning: { items: { subscriptionId: string; chargedTo: string | null }[] };
    };
    expect(report.dunning.items).toEqual([
      expect.objectContaining({ subscriptionId: sub.id, chargedTo: "Visa •••• 0341" }),
    ]);
    let res = await retry();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      charged: "declined",
      reason: expect.stringContaining("insufficient"),
    });
    const good = await saveTestMethod(t.app, client, { card: "4242" });
    expect((await client.post(`/api/payment-methods/${good.id}/default`)).statusCode).toBe(200);
    res = await retry();
    expect(res.json()).toEqual({ charged: "paid", reason: null });
    expect(await subscriptionOf(client, sub.orderId)).toMatchObject({ status: "active", due: null });
    const audit = await t.db.select().from(auditLog).where(eq(auditLog.entityId, sub.id));
    expect(audit.map((row) => row.changes.charged?.after)).toEqual(["declined", "paid"]);
  });
});

describe("renewals paid by bank transfer", () => {
  test("a subscription on a saved bank transfer is invoiced BANK_TRANSFER_RENEWAL_LEAD_BUSINESS_DAYS business days ahead, for payment by transfer", async () => {
    const { client, email } = await newBuyer();
    const sub = await subscribe(client, email);
    expect((await client.post("/api/payment-methods/bank-transfer")).statusCode).toBe(200);
    const dueAt = new Date(sub.paidThrough);
    const lead = t.app.payments.bankTransfer.renewalLeadBusinessDays;
    const invoiceFrom = (() => {
      // The latest moment from which the due date is within `lead` business days.
      let at = new Date(dueAt.getTime() - 60 * DAY_MS);
      while (addBusinessDays(at, lead) < dueAt) at = new Date(at.getTime() + HOUR_MS);
      return at;
    })();
    moveTo(new Date(invoiceFrom.getTime() - 2 * HOUR_MS));
    await renew();
    expect((await subscriptionOf(client, sub.orderId)).due).toBeNull();
    moveTo(invoiceFrom);
    await renew();
    const due = (await subscriptionOf(client, sub.orderId)).due;
    expect(due).not.toBeNull();
    expect(new Date(dueAt).getTime() - clock.now().getTime()).toBeGreaterThan(
      RENEWAL_INVOICE_LEAD_DAYS.month * DAY_MS,
    );
    const [order] = await t.db
      .select()
      .from(orders)
      .where(eq(orders.id, due?.orderId ?? ""));
    expect(order).toMatchObject({ paymentMethod: "bank-transfer", paymentStatus: "processing" });
    expect((await client.get(`/api/orders/${due?.orderId}/bank-transfer`)).statusCode).toBe(200);
    // Nothing is charged off-session on a transfer.
    moveTo(new Date(dueAt.getTime() + 60_000));
    await renew();
    expect(await attemptsOf(due?.orderId ?? "")).toEqual([]);
  });
});
