import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { BANK_TRANSFER_METHOD, transferAmountDue } from "#domain/bank-transfer";
import { computeTotals } from "#domain/money";
import { addIntervals } from "#domain/subscriptions";
import { user } from "#server/db/schema/auth";
import { products } from "#server/db/schema/catalog";
import { orderItems, orders } from "#server/db/schema/orders";
import { bankTransferOrders } from "#server/db/schema/payments";
import { subscriptionRenewals, subscriptions } from "#server/db/schema/subscriptions";
import { paymentDepsOf } from "#server/modules/payments/service";
import { RENEWAL_BATCH, runRenewals } from "#server/modules/renewals/service";
import { subscriptionsToInvoice } from "#server/modules/subscriptions/repository";
import { createTestApp } from "#server/test/app";
import { readOutbox } from "#server/test/outbox";

/**
 * The renewal job invoices a batch of subscriptions in a few set-based statements (decision 0027): the
 * rules the one-by-one path kept must hold for every row of a set, whatever the payment method.
 */

let t: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  t = await createTestApp({ seed: true });
});
afterAll(() => t.close());

const PRODUCT = "Batchwise Metrics";

/**
 * Subscriptions of the demo buyer to a monthly product, due a minute before `now`, started by one paid
 * order of `paymentMethod` taxed at `taxRate`: one item and subscription per line (price, seats).
 */
async function dueSubscriptions(
  paymentMethod: string,
  taxRate: string,
  lines: { price: string; quantity: number }[],
  now: Date,
): Promise<string[]> {
  const [buyer] = await t.db.select({ id: user.id }).from(user).where(eq(user.email, "buyer@stackbay.test"));
  const [product] = await t.db
    .insert(products)
    .values({ name: `${PRODUCT} ${paymentMethod}`, category: "saas", price: "1", pricingUnit: "month" })
    .returning();
  if (!buyer || !product) throw new Error("no demo buyer");
  const anchor = addIntervals(new Date(now.getTime() - 60_000), "month", -1);
  const [origin] = await t.db
    .insert(orders)
    .values({
      userId: buyer.id,
      subtotal: "0",
      tax: "0",
      totalAmount: "0",
      paymentMethod,
      paymentStatus: "mock_confirmed",
      isPaid: true,
      customerInfo: {
        fullName: "Bianca Buyer",
        email: "buyer@stackbay.test",
        address: "",
        city: "",
        country: "",
      },
      taxRate,
      createdAt: anchor,
      updatedAt: anchor,
    })
    .returning({ id: orders.id });
  if (!origin) throw new Error("no origin order");
  const items = await t.db
    .insert(orderItems)
    .values(
      lines.map((line) => ({
        orderId: origin.id,
        productId: product.id,
        productName: product.name,
        price: line.price,
        pricingUnit: "month" as const,
        quantity: line.quantity,
        category: "saas",
      })),
    )
    .returning();
  const started = await t.db
    .insert(subscriptions)
    .values(
      items.map((item) => ({
        userId: buyer.id,
        productId: product.id,
        orderItemId: item.id,
        orderId: origin.id,
        interval: "month" as const,
        unitPrice: item.price,
        quantity: item.quantity,
        anchor,
        periodsPaid: 1,
        paidThrough: addIntervals(anchor, "month", 1),
      })),
    )
    .returning({ id: subscriptions.id });
  return started.map((s) => s.id);
}

/** Each subscription's renewal orders and claims, with each order's one item. */
async function renewalsOf(ids: string[]) {
  return t.db
    .select({
      subscriptionId: subscriptionRenewals.subscriptionId,
      periodIndex: subscriptionRenewals.periodIndex,
      order: orders,
      item: orderItems,
      transfer: bankTransferOrders,
    })
    .from(subscriptionRenewals)
    .innerJoin(orders, eq(orders.id, subscriptionRenewals.orderId))
    .innerJoin(orderItems, eq(orderItems.orderId, orders.id))
    .leftJoin(bankTransferOrders, eq(bankTransferOrders.orderId, orders.id))
    .where(inArray(subscriptionRenewals.subscriptionId, ids));
}

const until = (now: Date) => ({ month: now, year: now, metered: now });

test("one batch mixing bank-transfer and card subscriptions: each invoiced once, at the amounts computeTotals gives, the transfers with their instructions", async () => {
  const clock = t.app.clock;
  const now = clock.now();
  const byTransfer = await dueSubscriptions(
    BANK_TRANSFER_METHOD,
    "0.0500",
    [
      { price: "9.9900", quantity: 3 },
      { price: "0.3300", quantity: 1 },
    ],
    now,
  );
  const byCard = await dueSubscriptions(
    "stripe",
    "0.1900",
    [
      { price: "4.5000", quantity: 7 },
      { price: "12.3450", quantity: 1 },
      { price: "0.0100", quantity: 99 },
    ],
    now,
  );
  const all = [...byTransfer, ...byCard];
  const before = (await readOutbox(t.dataDir)).length;

  const run = await runRenewals(paymentDepsOf(t.app), now);
  expect(run.invoiced).toBeGreaterThanOrEqual(all.length);
  await t.app.jobs.idle();

  const renewals = await renewalsOf(all);
  expect(renewals.map((r) => r.subscriptionId).sort()).toEqual([...all].sort());
  const started = await t.db.select().from(subscriptions).where(inArray(subscriptions.id, all));
  for (const subscription of started) {
    const renewal = renewals.find((r) => r.subscriptionId === subscription.id);
    const transfer = byTransfer.includes(subscription.id);
    const totals = computeTotals(
      [{ price: subscription.unitPrice, quantity: subscription.quantity }],
      transfer ? "0.0500" : "0.1900",
    );
    expect(renewal?.periodIndex).toBe(1);
    expect(subscription.claimedPeriod).toBe(1);
    expect(renewal?.order).toMatchObject({
      idempotencyKey: `renewal:${subscription.id}:1`,
      paymentMethod: transfer ? BANK_TRANSFER_METHOD : "stripe",
      paymentStatus: transfer ? "processing" : "pending",
      isPaid: false,
      subtotal: totals.subtotal,
      tax: totals.tax,
      totalAmount: totals.total,
    });
    expect(renewal?.item).toMatchObject({
      productId: subscription.productId,
      price: subscription.unitPrice,
      quantity: subscription.quantity,
      tax: totals.lineTaxes[0],
      pricingUnit: "month",
    });
    if (transfer) expect(renewal?.transfer?.amountDue).toBe(transferAmountDue(totals.total));
    else expect(renewal?.transfer).toBeNull();
  }
  const mails = (await readOutbox(t.dataDir)).slice(before);
  expect(
    mails.filter((m) => m.subject.includes(`${PRODUCT}`) && m.subject.includes("renews on")),
  ).toHaveLength(all.length);
  const instructions = mails.filter((m) => m.subject.includes("by bank transfer"));
  expect(instructions).toHaveLength(byTransfer.length);

  // Claimed: not picked again, by this instance's next run or another's.
  expect((await runRenewals(paymentDepsOf(t.app), now)).invoiced).toBe(0);
  const picked = await t.db.transaction((tx) => subscriptionsToInvoice(tx, until(now), RENEWAL_BATCH));
  expect(picked.filter((s) => all.includes(s.id))).toEqual([]);
  expect(await renewalsOf(all)).toHaveLength(all.length);
});

test("a subscription whose next period has a claim is not picked, even if its claimed_period lags; once that period is paid, the next one is invoiced", async () => {
  const now = t.app.clock.now();
  const [id = ""] = await dueSubscriptions("stripe", "0.0500", [{ price: "20.0000", quantity: 2 }], now);
  await runRenewals(paymentDepsOf(t.app), now);
  expect(await renewalsOf([id])).toHaveLength(1);

  // A claim written without its column (an older writer): the claim row still rules.
  await t.db.update(subscriptions).set({ claimedPeriod: null }).where(eq(subscriptions.id, id));
  const picked = await t.db.transaction((tx) => subscriptionsToInvoice(tx, until(now), RENEWAL_BATCH));
  expect(picked.map((s) => s.id)).not.toContain(id);
  expect((await runRenewals(paymentDepsOf(t.app), now)).invoiced).toBe(0);

  // Its first renewal paid (as delivery records it): the second period is due and invoiced once.
  await t.db
    .update(subscriptions)
    .set({ periodsPaid: 2, paidThrough: sql`${subscriptions.paidThrough}` })
    .where(eq(subscriptions.id, id));
  await Promise.all([runRenewals(paymentDepsOf(t.app), now), runRenewals(paymentDepsOf(t.app), now)]);
  const renewals = await renewalsOf([id]);
  expect(renewals.map((r) => r.periodIndex).sort()).toEqual([1, 2]);
  expect(renewals.find((r) => r.periodIndex === 2)?.order.idempotencyKey).toBe(`renewal:${id}:2`);
  const [after] = await t.db.select().from(subscriptions).where(eq(subscriptions.id, id));
  expect(after?.claimedPeriod).toBe(2);
});
