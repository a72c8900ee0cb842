import { and, eq, inArray, sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DAY_MS } from "#domain/dates";
import { computeTotals } from "#domain/money";
import type { PlanList } from "#domain/plan-schemas";
import type { Subscription, SubscriptionChangePreview } from "#domain/subscription-schemas";
import { addIntervals, previewChange, RENEWAL_INVOICE_LEAD_DAYS } from "#domain/subscriptions";
import { licenses } from "#server/db/schema/after-sale";
import { user } from "#server/db/schema/auth";
import { products } from "#server/db/schema/catalog";
import { journalEntries } from "#server/db/schema/ledger";
import { orderItems, orders } from "#server/db/schema/orders";
import { subscriptionChanges, subscriptionRenewals } from "#server/db/schema/subscriptions";
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
let stranger: Client;
const plan: Record<"monthly" | "business" | "yearly" | "other", string> = {
  monthly: "",
  business: "",
  yearly: "",
  other: "",
};
let productId = "";

beforeAll(async () => {
  t = await createTestApp({ seed: true });
  clock = t.app.clock as AdjustableClock;
  seller = await signedInClient(t.app, "seller@stackbay.test", DEMO_PASSWORD);
  const someone = await createVerifiedAccount(t.app, t.dataDir, { email: "change-stranger@example.com" });
  stranger = await signedInClient(t.app, someone.email, someone.password);
  const [me] = await t.db.select({ id: user.id }).from(user).where(eq(user.email, "seller@stackbay.test"));
  const made = await t.db
    .insert(products)
    .values(
      [
        ["Change CRM", "20"],
        ["Other CRM", "15"],
      ].map(([name, price]) => ({
        name: name ?? "",
        category: "saas",
        price: price ?? "0",
        pricingUnit: "user_month" as const,
        vendor: "Changes",
        sellerId: me?.id ?? null,
      })),
    )
    .returning({ id: products.id, name: products.name });
  productId = made.find((p) => p.name === "Change CRM")?.id ?? "";
  const seats = { perSeat: true, minSeats: 1, maxSeats: 20, trialDays: 0 } as const;
  const saved = await seller.request("PUT", `/api/manage/products/${productId}/plans`, {
    plans: [
      { name: "Monthly", interval: "month", price: 20, ...seats, trialDays: 14 },
      { name: "Business", interval: "month", price: 30, ...seats },
      { name: "Yearly", interval: "year", price: 200, ...seats },
    ],
  });
  expect(saved.statusCode, saved.body).toBe(200);
  const plans = (saved.json() as PlanList).plans;
  plan.monthly = plans.find((p) => p.name === "Monthly")?.id ?? "";
  plan.business = plans.find((p) => p.name === "Business")?.id ?? "";
  plan.yearly = plans.find((p) => p.name === "Yearly")?.id ?? "";
  const other = await seller.request(
    "PUT",
    `/api/manage/products/${made.find((p) => p.name === "Other CRM")?.id}/plans`,
    { plans: [{ name: "Other", interval: "month", price: 15, ...seats }] },
  );
  plan.other = (other.json() as PlanList).plans[0]?.id ?? "";
});
afterAll(async () => {
  clock.reset();
  await t.close();
});

/** A new buyer with `seats` seats of Change CRM on `planId` (or its trial), bought and paid now. */
async function subscriber(email: string, seats: number, planId = plan.monthly, trial = false) {
  const person = await createVerifiedAccount(t.app, t.dataDir, { email });
  const client = await signedInClient(t.app, person.email, person.password);
  await placeAndPay(t.app, client, {
    items: [{ productId, quantity: seats, price: planId === plan.business ? 30 : 20, planId, trial }],
  });
  const [subscription] = await desk(client);
  if (!subscription) throw new Error("no subscription started");
  return { client, subscription };
}
async function desk(client: Client): Promise<Subscription[]> {
  const res = await client.get("/api/subscriptions");
  expect(res.statusCode).toBe(200);
  return (res.json() as { items: Subscription[] }).items;
}
async function preview(client: Client, id: string, body: { planId: string; seats: number }, status = 200) {
  const res = await client.post(`/api/subscriptions/${id}/change/preview`, body);
  expect(res.statusCode, res.body).toBe(status);
  return res.json() as SubscriptionChangePreview & { code?: string };
}
async function commit(client: Client, id: string, shown: SubscriptionChangePreview, status = 200) {
  const res = await client.post(`/api/subscriptions/${id}/change`, {
    planId: shown.planId,
    seats: shown.seats,
    pricedAt: shown.pricedAt,
    token: shown.token,
  });
  expect(res.statusCode, res.body).toBe(status);
  return res.json() as {
    subscription: Subscription;
    change: { status: string; orderId: string | null };
    code?: string;
  };
}
function moveTo(at: Date) {
  const ms = at.getTime() - clock.now().getTime();
  if (ms > 0) clock.advance(ms);
}
async function pay(client: Client, orderId: string) {
  const res = await client.post(`/api/orders/${orderId}/payment`);
  expect(res.statusCode, res.body).toBe(200);
  await choose(client, (res.json() as { redirectUrl: string }).redirectUrl, "pay");
  await eventsDelivered(t.app);
}
const renew = async () => {
  const run = await runRenewals(paymentDepsOf(t.app), clock.now());
  await t.app.jobs.idle();
  return run;
};
async function orderRow(id: string) {
  const [row] = await t.db.select().from(orders).where(eq(orders.id, id));
  return row;
}
async function changesOf(subscriptionId: string) {
  return t.db
    .select()
    .from(subscriptionChanges)
    .where(eq(subscriptionChanges.subscriptionId, subscriptionId));
}
/** The buyer asks for the refund of the order's one line, and the seller approves it. */
async function refunded(client: Client, orderId: string) {
  const [line] = await t.db
    .select({ id: orderItems.id })
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId));
  const asked = await client.post(`/api/orders/${orderId}/items/${line?.id}/refund`, {
    reason: "We no longer need what this paid for.",
  });
  expect(asked.statusCode, asked.body).toBe(201);
  const approved = await seller.post(`/api/refunds/${asked.json().refund.id}/decision`, {
    decision: "approve",
  });
  expect(approved.statusCode, approved.body).toBe(200);
}

describe("changing plan or seats: previewed, then committed exactly as previewed", () => {
  test("more seats halfway through a month: charged the prorated difference now, applied once paid, and the next renewal bills them", async () => {
    const { client, subscription: s } = await subscriber("change-up@example.com", 4);
    const start = new Date(s.anchor);
    const end = new Date(s.paidThrough);
    moveTo(new Date(start.getTime() + (end.getTime() - start.getTime()) / 2));
    const shown = await preview(client, s.id, { planId: plan.monthly, seats: 10 });
    // What the rule says for 4 → 10 seats at $20 a seat, at this moment of the period.
    const expected = previewChange(
      { plan: { interval: "month", priceCents: 2000, perSeat: true, minSeats: 1, maxSeats: 20 }, seats: 4 },
      { plan: { interval: "month", priceCents: 2000, perSeat: true, minSeats: 1, maxSeats: 20 }, seats: 10 },
      { index: 0, start, end },
      new Date(shown.pricedAt),
    );
    expect(shown).toMatchObject({
      kind: "now",
      creditCents: expected.creditCents,
      chargeCents: expected.chargeCents,
      dueCents: expected.dueCents,
      effectiveAt: shown.pricedAt,
      nextChargeAt: s.paidThrough,
      nextTotal: computeTotals([{ price: "20", quantity: 10 }], s.taxRate).total,
    });
    expect(shown.dueCents).toBeGreaterThan(5900);
    expect(shown.dueCents).toBeLessThan(6100);
    // Previewing changes nothing.
    expect(await changesOf(s.id)).toEqual([]);

    const done = await commit(client, s.id, shown);
    expect(done.change.status).toBe("awaiting_payment");
    expect(done.subscription).toMatchObject({
      quantity: 4,
      pendingChange: { status: "awaiting_payment", quantity: 10, orderId: done.change.orderId },
    });
    const orderId = done.change.orderId ?? "";
    expect(await orderRow(orderId)).toMatchObject({ totalAmount: shown.dueTotal, tax: shown.dueTax });
    const [line] = await t.db.select().from(orderItems).where(eq(orderItems.orderId, orderId));
    expect(line).toMatchObject({ quantity: 1, pricingUnit: "one_time" });
    expect(line?.productName).toContain("Change CRM — Monthly, 10 seats");

    await pay(client, orderId);
    const [after] = await desk(client);
    expect(after).toMatchObject({
      quantity: 10,
      pendingChange: null,
      paidThrough: s.paidThrough,
      interval: "month",
    });
    // One key per seat: the four it had and six more, all renewing with it.
    expect(after?.licenseKeys).toHaveLength(10);
    expect(after?.licenseKeys.slice(0, 4)).toEqual(s.licenseKeys);
    // The change's sale is booked once and balances; it issued no licence keys of its own.
    const sales = await t.db
      .select()
      .from(journalEntries)
      .where(and(eq(journalEntries.kind, "sale"), eq(journalEntries.orderId, orderId)));
    expect(sales).toHaveLength(1);
    expect(await unbalancedEntries(t.db)).toEqual([]);
    expect(await t.db.select().from(licenses).where(eq(licenses.orderId, orderId))).toEqual([]);
    // The seller's figures count the six seats as this month's expansion of MRR.
    const report = await seller.get("/api/seller/subscriptions");
    expect(report.statusCode).toBe(200);
    expect((report.json() as { figures: { expansionMrr: string } }).figures.expansionMrr).toBe("120.0000");

    // The next renewal bills 10 seats.
    moveTo(new Date(end.getTime() - RENEWAL_INVOICE_LEAD_DAYS.month * DAY_MS));
    await renew();
    const [renewed] = await desk(client);
    expect(renewed?.due?.total).toBe(computeTotals([{ price: "20", quantity: 10 }], s.taxRate).total);
  });

  test("fewer seats or a cheaper plan wait for the period's end: nothing now, the renewal bills the new terms and applies them", async () => {
    const { client, subscription: s } = await subscriber("change-down@example.com", 6, plan.business);
    moveTo(new Date(clock.now().getTime() + 10 * DAY_MS));
    const shown = await preview(client, s.id, { planId: plan.monthly, seats: 3 });
    expect(shown).toMatchObject({
      kind: "at_period_end",
      creditCents: 0,
      chargeCents: 0,
      dueCents: 0,
      dueTotal: "0.0000",
      effectiveAt: s.paidThrough,
      nextTotal: computeTotals([{ price: "20", quantity: 3 }], s.taxRate).total,
    });
    const done = await commit(client, s.id, shown);
    expect(done.change).toEqual({ status: "scheduled", orderId: null, charged: null, declineReason: null });
    expect(done.subscription).toMatchObject({
      planName: "Business",
      quantity: 6,
      nextTotal: shown.nextTotal,
      pendingChange: { status: "scheduled", planName: "Monthly", quantity: 3, effectiveAt: s.paidThrough },
    });
    // Once the renewal is invoiced (at the new terms), the change can no longer be replaced.
    moveTo(new Date(new Date(s.paidThrough).getTime() - RENEWAL_INVOICE_LEAD_DAYS.month * DAY_MS));
    await renew();
    const [invoiced] = await desk(client);
    expect(invoiced?.due?.total).toBe(shown.nextTotal);
    expect((await preview(client, s.id, { planId: plan.business, seats: 6 }, 409)).code).toBe(
      "RENEWAL_INVOICED",
    );
    await pay(client, invoiced?.due?.orderId ?? "");
    const [after] = await desk(client);
    expect(after).toMatchObject({
      planName: "Monthly",
      quantity: 3,
      unitPrice: "20.0000",
      pendingChange: null,
    });
    expect(after?.paidThrough).toBe(addIntervals(new Date(s.anchor), "month", 2).toISOString());
    // Three seats, three keys: the oldest kept, the newest revoked.
    expect(after?.licenseKeys).toEqual(s.licenseKeys.slice(0, 3));
    expect(await unbalancedEntries(t.db)).toEqual([]);
  });

  test("monthly to yearly starts a paid year from the moment priced; it then renews once a year, the periods counting on", async () => {
    const { client, subscription: s } = await subscriber("change-year@example.com", 2);
    moveTo(new Date(clock.now().getTime() + 20 * DAY_MS));
    const shown = await preview(client, s.id, { planId: plan.yearly, seats: 2 });
    const pricedAt = new Date(shown.pricedAt);
    expect(shown.kind).toBe("restart");
    expect(shown.chargeCents).toBe(40000);
    expect(shown.dueCents).toBe(40000 - shown.creditCents);
    expect(shown.nextChargeAt).toBe(addIntervals(pricedAt, "year", 1).toISOString());
    const done = await commit(client, s.id, shown);
    await pay(client, done.change.orderId ?? "");
    const [after] = await desk(client);
    expect(after).toMatchObject({
      interval: "year",
      planName: "Yearly",
      unitPrice: "200.0000",
      quantity: 2,
      anchor: pricedAt.toISOString(),
      anchorPeriod: 1,
      paidThrough: addIntervals(pricedAt, "year", 1).toISOString(),
    });
    const [key] = await t.db.select().from(licenses).where(eq(licenses.orderId, s.orderId));
    expect(key?.renewsAt?.toISOString()).toBe(after?.paidThrough);

    // A year on: one renewal, for period 2, due on the yearly boundary.
    moveTo(new Date(addIntervals(pricedAt, "year", 1).getTime() - RENEWAL_INVOICE_LEAD_DAYS.year * DAY_MS));
    await renew();
    await renew();
    const claims = await t.db
      .select()
      .from(subscriptionRenewals)
      .where(eq(subscriptionRenewals.subscriptionId, s.id));
    expect(claims.map((c) => [c.periodIndex, c.dueAt.toISOString()])).toEqual([
      [2, addIntervals(pricedAt, "year", 1).toISOString()],
    ]);
    const [due] = await desk(client);
    await pay(client, due?.due?.orderId ?? "");
    const [renewed] = await desk(client);
    expect(renewed?.paidThrough).toBe(addIntervals(pricedAt, "year", 2).toISOString());
    expect(await unbalancedEntries(t.db)).toEqual([]);
  });

  test("a stale preview is refused and nothing changes: another change in between, a preview too old, a forged token", async () => {
    const { client, subscription: s } = await subscriber("change-stale@example.com", 2);
    moveTo(new Date(clock.now().getTime() + 5 * DAY_MS));
    const first = await preview(client, s.id, { planId: plan.monthly, seats: 1 });
    const second = await preview(client, s.id, { planId: plan.monthly, seats: 1 });
    // A forged token, and a preview of other seats presented with this one's token.
    expect((await commit(client, s.id, { ...first, token: "x".repeat(43) }, 409)).code).toBe("PREVIEW_STALE");
    expect((await commit(client, s.id, { ...first, seats: 3 }, 409)).code).toBe("PREVIEW_STALE");
    expect(await changesOf(s.id)).toEqual([]);
    // Another change committed in between makes the earlier preview stale.
    await commit(client, s.id, second);
    expect((await commit(client, s.id, first, 409)).code).toBe("PREVIEW_STALE");
    // A preview older than 15 minutes is stale too.
    const late = await preview(client, s.id, { planId: plan.business, seats: 2 });
    clock.advance(16 * 60 * 1000);
    expect((await commit(client, s.id, late, 409)).code).toBe("PREVIEW_STALE");
    const rows = await changesOf(s.id);
    expect(rows.map((r) => [r.status, r.toQuantity])).toEqual([["scheduled", 1]]);
    // The seller's new price of a plan makes a preview of it stale.
    const priced = await preview(client, s.id, { planId: plan.business, seats: 2 });
    await t.db.execute(
      sql`update product_plans set price = 31, updated_at = now() where id = ${plan.business}`,
    );
    expect((await commit(client, s.id, priced, 409)).code).toBe("PREVIEW_STALE");
    await t.db.execute(
      sql`update product_plans set price = 30, updated_at = now() where id = ${plan.business}`,
    );
  });

  test("bad input: someone else's subscription, another product's plan, seats outside the plan, no change, signed out; a cancelling subscription", async () => {
    const { client, subscription: s } = await subscriber("change-bad@example.com", 2);
    expect((await preview(stranger, s.id, { planId: plan.business, seats: 2 }, 404)).code).toBe(
      "SUBSCRIPTION_NOT_FOUND",
    );
    expect((await preview(client, s.id, { planId: plan.other, seats: 2 }, 404)).code).toBe("PLAN_NOT_FOUND");
    expect((await preview(client, s.id, { planId: plan.business, seats: 21 }, 400)).code).toBe(
      "SEATS_OUT_OF_RANGE",
    );
    expect((await preview(client, s.id, { planId: plan.business, seats: 0 }, 400)).code).toBe(
      "VALIDATION_ERROR",
    );
    expect((await preview(client, s.id, { planId: plan.monthly, seats: 2 }, 400)).code).toBe("NO_CHANGE");
    const signedOut = await t.app.inject({
      method: "POST",
      url: `/api/subscriptions/${s.id}/change/preview`,
      payload: { planId: plan.business, seats: 2 },
    });
    expect(signedOut.statusCode).toBe(401);
    // A stranger presenting the owner's preview changes nothing.
    const shown = await preview(client, s.id, { planId: plan.business, seats: 2 });
    expect((await commit(stranger, s.id, shown, 404)).code).toBe("SUBSCRIPTION_NOT_FOUND");
    expect(await changesOf(s.id)).toEqual([]);
    // Cancelling first: resume before changing.
    expect((await client.post(`/api/subscriptions/${s.id}/cancel`)).statusCode).toBe(200);
    expect((await preview(client, s.id, { planId: plan.business, seats: 2 }, 409)).code).toBe(
      "SUBSCRIPTION_CANCELLING",
    );
    expect((await commit(client, s.id, shown, 409)).code).toBe("SUBSCRIPTION_CANCELLING");
  });

  test("during a free trial a change is free and immediate, and the first invoice bills it", async () => {
    const { client, subscription: s } = await subscriber("change-trial@example.com", 2, plan.monthly, true);
    expect(s.status).toBe("trialing");
    const shown = await preview(client, s.id, { planId: plan.business, seats: 5 });
    expect(shown).toMatchObject({
      kind: "now",
      dueCents: 0,
      dueTotal: "0.0000",
      nextChargeAt: s.paidThrough,
    });
    const done = await commit(client, s.id, shown);
    expect(done.change).toEqual({ status: "applied", orderId: null, charged: null, declineReason: null });
    expect(done.subscription).toMatchObject({ planName: "Business", quantity: 5, status: "trialing" });
    moveTo(new Date(new Date(s.paidThrough).getTime() - RENEWAL_INVOICE_LEAD_DAYS.month * DAY_MS));
    await renew();
    const [invoiced] = await desk(client);
    expect(invoiced?.due?.total).toBe(computeTotals([{ price: "30", quantity: 5 }], s.taxRate).total);
  });

  test("an upgrade left unpaid is cancelled with its order when the renewal is invoiced at the present terms", async () => {
    const { client, subscription: s } = await subscriber("change-unpaid@example.com", 2);
    moveTo(new Date(clock.now().getTime() + 12 * DAY_MS));
    const done = await commit(client, s.id, await preview(client, s.id, { planId: plan.business, seats: 2 }));
    const orderId = done.change.orderId ?? "";
    moveTo(new Date(new Date(s.paidThrough).getTime() - RENEWAL_INVOICE_LEAD_DAYS.month * DAY_MS));
    await renew();
    const [after] = await desk(client);
    expect(after).toMatchObject({ planName: "Monthly", pendingChange: null });
    expect(after?.due?.total).toBe(computeTotals([{ price: "20", quantity: 2 }], s.taxRate).total);
    expect((await orderRow(orderId))?.cancelledAt).not.toBeNull();
    expect((await changesOf(s.id)).map((c) => c.status)).toEqual(["cancelled"]);
    const payment = await client.post(`/api/orders/${orderId}/payment`);
    expect(payment.statusCode).toBe(409);
    // Its renewal is unaffected by the cancelled change.
    expect(
      await t.db
        .select({ id: subscriptionRenewals.id })
        .from(subscriptionRenewals)
        .where(inArray(subscriptionRenewals.orderId, [orderId])),
    ).toEqual([]);
  });

  test("property: any sequence of changes in a period charges exactly what each preview said, the ledger balances, and the terms in effect are the last ones paid for", async () => {
    let run = 0;
    const step = fc.record({
      plan: fc.constantFrom("monthly", "business", "yearly") as fc.Arbitrary<
        "monthly" | "business" | "yearly"
      >,
      seats: fc.integer({ min: 1, max: 20 }),
      hours: fc.integer({ min: 1, max: 72 }),
      pays: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 4 }), async (steps) => {
        const { client, subscription: s } = await subscriber(`change-prop-${run++}@example.com`, 3);
        let terms = { plan: "Monthly", seats: 3, interval: "month" };
        let periodEnd = new Date(s.paidThrough);
        let pending: typeof terms | null = null;
        for (const { plan: name, seats, hours, pays } of steps) {
          clock.advance(hours * 60 * 60 * 1000);
          if (clock.now() >= new Date(periodEnd.getTime() - RENEWAL_INVOICE_LEAD_DAYS.month * DAY_MS)) break;
          const res = await client.post(`/api/subscriptions/${s.id}/change/preview`, {
            planId: plan[name],
            seats,
          });
          if (res.statusCode !== 200) {
            // The only refusal such a sequence meets: the terms it already has.
            expect((res.json() as { code: string }).code, res.body).toBe("NO_CHANGE");
            continue;
          }
          const shown = res.json() as SubscriptionChangePreview;
          const done = await commit(client, s.id, shown);
          const next = { plan: shown.planName, seats, interval: shown.interval };
          if (done.change.status === "awaiting_payment") {
            const order = await orderRow(done.change.orderId ?? "");
            expect(order).toMatchObject({ totalAmount: shown.dueTotal, tax: shown.dueTax });
            expect(shown.dueCents).toBe(shown.chargeCents - shown.creditCents);
            if (pays) {
              await pay(client, done.change.orderId ?? "");
              terms = next;
              pending = null;
              if (shown.kind === "restart") periodEnd = new Date(shown.nextChargeAt);
            } else pending = null;
          } else if (done.change.status === "scheduled") pending = next;
          else {
            // Applied at once with nothing due: a trial's change, or a switch to yearly whose credit for
            // the unused month covers the year (the excess is not paid back): its year starts now.
            terms = next;
            pending = null;
            if (shown.kind === "restart") periodEnd = new Date(shown.nextChargeAt);
          }
          const [now] = await desk(client);
          expect({ plan: now?.planName, seats: now?.quantity, interval: now?.interval }).toEqual(terms);
          expect(now?.paidThrough).toBe(periodEnd.toISOString());
          if (pending)
            expect(now?.pendingChange).toMatchObject({
              status: "scheduled",
              planName: pending.plan,
              quantity: pending.seats,
            });
        }
        expect(await unbalancedEntries(t.db)).toEqual([]);
        // Every paid change order was charged exactly the previewed amount: none is paid without a change applied.
        const paidChanges = await t.db
          .select({ status: subscriptionChanges.status, total: orders.totalAmount, isPaid: orders.isPaid })
          .from(subscriptionChanges)
          .innerJoin(orders, eq(orders.id, subscriptionChanges.orderId))
          .where(and(eq(subscriptionChanges.subscriptionId, s.id), eq(orders.isPaid, true)));
        for (const row of paidChanges) expect(row.status).toBe("applied");
      }),
      {
        numRuns: 5,
        // Found by CI (seed 882662446): eleven seats monthly, then one seat yearly, whose credit for the
        // rest of the month pays the whole year, so nothing is due and the year starts at once.
        examples: [
          [
            [
              { plan: "monthly", seats: 11, hours: 1, pays: true },
              { plan: "yearly", seats: 1, hours: 1, pays: false },
            ],
          ],
        ],
      },
    );
  });

  test("refunds take back what they paid for: a refunded upgrade goes back to the seats before it; a refunded renewal ends the subscription and its keys", async () => {
    const { client, subscription: s } = await subscriber("change-refund@example.com", 2);
    moveTo(new Date(clock.now().getTime() + 3 * DAY_MS));
    const up = await commit(client, s.id, await preview(client, s.id, { planId: plan.monthly, seats: 5 }));
    await pay(client, up.change.orderId ?? "");
    expect((await desk(client))[0]?.quantity).toBe(5);
    expect((await desk(client))[0]?.licenseKeys).toHaveLength(5);
    await refunded(client, up.change.orderId ?? "");
    const [reverted] = await desk(client);
    expect(reverted).toMatchObject({ quantity: 2, status: "active", paidThrough: s.paidThrough });
    expect(reverted?.licenseKeys).toEqual(s.licenseKeys);

    // The next renewal, paid and then refunded within the window: the subscription ends, keys and all.
    moveTo(new Date(new Date(s.paidThrough).getTime() - RENEWAL_INVOICE_LEAD_DAYS.month * DAY_MS));
    await renew();
    const renewalOrder = (await desk(client))[0]?.due?.orderId ?? "";
    await pay(client, renewalOrder);
    moveTo(new Date(new Date(s.paidThrough).getTime() + DAY_MS));
    await refunded(client, renewalOrder);
    const [ended] = await desk(client);
    expect(ended).toMatchObject({ status: "ended", endReason: "cancelled", licenseKeys: [] });
    // Nothing is invoiced for it again.
    moveTo(addIntervals(new Date(s.paidThrough), "month", 1));
    await renew();
    expect((await desk(client))[0]?.due).toBeNull();
    expect(await unbalancedEntries(t.db)).toEqual([]);
  });
});
