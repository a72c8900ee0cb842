import { eq, inArray } from "drizzle-orm";
import type { ProductPlan } from "#domain/catalog-schemas";
import { buyerOf } from "#domain/checkout";
import { DAY_MS } from "#domain/dates";
import { usagePeriodAt } from "#domain/metering";
import { addIntervals, RENEWAL_INVOICE_LEAD_DAYS } from "#domain/subscriptions";
import { decideTax } from "#domain/tax";
import type { Database, Transaction } from "#server/db/client";
import { user } from "#server/db/schema/auth";
import { products } from "#server/db/schema/catalog";
import { orders } from "#server/db/schema/orders";
import { subscriptions, usagePeriods, usageRecords } from "#server/db/schema/subscriptions";
import type { DemoProduct } from "#server/db/seed/catalog-data";
import { insertPaidDemoOrder } from "#server/db/seed/demo-orders";
import { METERED } from "#server/db/seed/plans";
import { releaseDue } from "#server/modules/ledger/bookings";
import { livePlansOf } from "#server/modules/plans/repository";
import { makeRenewalOrder } from "#server/modules/renewals/service";
import { setRemindersSent, unpaidRenewalsOf } from "#server/modules/subscriptions/repository";
import { startSubscriptions } from "#server/modules/subscriptions/service";
import { loadEffectiveTaxRates } from "#server/modules/tax/service";

const IDEMPOTENCY_KEY = "demo-subscriptions";

/** A demo line's plan: the product's first, with its trial taken or not. */
const planOf = (plan: ProductPlan | undefined, trial: boolean) =>
  plan ? { id: plan.id, price: plan.price, trialDays: plan.trialDays, trial } : undefined;
export const DEMO_SUBSCRIBER = "buyer@stackbay.test";

/**
 * The demo buyer's subscriptions, so the renewal desk shows each state on a first start (decision 0027):
 * - a monthly one, active, renewing in about 14 days;
 * - a yearly one renewing in 20 days (its renewal is invoiced 14 days ahead, so in about 6 days);
 * - three seats of a per-user plan, renewing in about 10 days;
 * - five seats of a per-user plan on its 14-day free trial, started 5 days ago;
 * - a monthly one past due: its renewal fell due 2 days ago unpaid, the day-1 reminder went out, and it
 *   ends in 5 days unless paid;
 * - a metered API (decision 0029), started 16 days ago, with a day's use reported for each day since
 *   (23,450 lookups, $40.18 so far) and a $100 spending cap.
 * Each was bought and paid as a checkout pays in test mode (`insertPaidDemoOrder`) and started as a
 * delivery starts it, longer ago than the refund window, so the sellers' nets are available, as the
 * reviews' orders are; the past-due renewal's order is the one the renewal job would have made.
 */
export async function seedDemoSubscriptions(
  db: Database,
  options: { now: Date; catalogue: readonly (DemoProduct & { id: string })[] },
): Promise<number> {
  const { now } = options;
  const [buyer] = await db.select({ id: user.id }).from(user).where(eq(user.email, DEMO_SUBSCRIBER));
  if (!buyer) return 0;
  const [done] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(eq(orders.idempotencyKey, `${IDEMPOTENCY_KEY}:0`));
  if (done) return 0;
  const byKey = new Map(options.catalogue.map((p) => [p.key, p]));
  const twoDaysAgo = new Date(now.getTime() - 2 * DAY_MS);
  const plan = [
    {
      key: "orbitide-uptime-board",
      quantity: 1,
      at: new Date(now.getTime() - 16 * DAY_MS),
      pastDue: false,
      trial: false,
    },
    {
      key: "tidewell-query-desk",
      quantity: 1,
      at: addIntervals(new Date(now.getTime() + 20 * DAY_MS), "year", -1),
      pastDue: false,
    },
    { key: "nimbus-crm-pro", quantity: 3, at: new Date(now.getTime() - 20 * DAY_MS), pastDue: false },
    {
      key: "corvane-helpdesk",
      quantity: 5,
      at: new Date(now.getTime() - 5 * DAY_MS),
      pastDue: false,
      trial: true,
    },
    {
      key: "driftpoint-product-analytics",
      quantity: 1,
      at: addIntervals(twoDaysAgo, "month", -1),
      pastDue: true,
    },
    {
      key: "cinderpath-threat-intel-api",
      quantity: 1,
      at: new Date(now.getTime() - 16 * DAY_MS),
      pastDue: false,
    },
  ].flatMap((entry) => {
    const product = byKey.get(entry.key);
    return product ? [{ ...entry, product }] : [];
  });
  const sellerOf = new Map(
    (
      await db
        .select({ id: products.id, sellerId: products.sellerId })
        .from(products)
        .where(inArray(products.id, plan.length ? plan.map((p) => p.product.id) : [""]))
    ).map((p) => [p.id, p.sellerId]),
  );
  const plans = await livePlansOf(
    db,
    plan.map((p) => p.product.id),
  );
  // The demo buyer is a consumer in the United States, taxed as a checkout there would be.
  const country = buyerOf({ country: "US", business: false, company: "", taxId: "" });
  const tax = decideTax(country, await loadEffectiveTaxRates(db), null);
  await db.transaction(async (tx) => {
    for (const [index, entry] of plan.entries()) {
      const { orderId } = await insertPaidDemoOrder(tx, {
        userId: buyer.id,
        customer: {
          fullName: "Bianca Buyer",
          email: DEMO_SUBSCRIBER,
          address: "1 Demo Street",
          city: "Austin",
          country: "United States",
        },
        country: country.country,
        tax,
        lines: [
          {
            product: entry.product,
            quantity: entry.quantity,
            sellerId: sellerOf.get(entry.product.id) ?? null,
            plan: planOf(plans.get(entry.product.id)?.[0], "trial" in entry && entry.trial === true),
          },
        ],
        idempotencyKey: `${IDEMPOTENCY_KEY}:${index}`,
        at: entry.at,
      });
      await startSubscriptions(tx, orderId, buyer.id, entry.at);
      const sellerId = sellerOf.get(entry.product.id);
      if (METERED[entry.key] && sellerId) await seedDemoUsage(tx, orderId, sellerId, now);
      if (!entry.pastDue) continue;
      const [subscription] = await tx.select().from(subscriptions).where(eq(subscriptions.orderId, orderId));
      if (!subscription) continue;
      const invoicedAt = new Date(
        subscription.paidThrough.getTime() - RENEWAL_INVOICE_LEAD_DAYS.month * DAY_MS,
      );
      await makeRenewalOrder(tx, subscription, invoicedAt);
      const renewal = (await unpaidRenewalsOf(tx, [subscription.id])).get(subscription.id);
      if (renewal) await setRemindersSent(tx, renewal.id, 1);
    }
  });
  await releaseDue(db, now);
  return plan.length;
}

/** Lookups reported each day of the demo's metered subscription, oldest first: 23,450 in all. */
const DAILY_USE = [
  900, 1250, 1400, 1100, 640, 1800, 1650, 1420, 1960, 1510, 1700, 1690, 1380, 1520, 1730, 1800,
];

/**
 * The demo's metered subscription's use so far, as its seller's system would have reported it (a record
 * a day, keyed by the day), with the buyer's $100 cap; the period's sum is kept as reports keep it.
 */
async function seedDemoUsage(tx: Transaction, orderId: string, sellerId: string, now: Date) {
  const [subscription] = await tx.select().from(subscriptions).where(eq(subscriptions.orderId, orderId));
  if (!subscription) return;
  const period = usagePeriodAt(subscription, now);
  const records = DAILY_USE.map((quantity, day) => ({
    subscriptionId: subscription.id,
    sellerId,
    periodIndex: period.index,
    quantity,
    usedAt: new Date(subscription.anchor.getTime() + day * DAY_MS + 6 * 3600e3),
    idempotencyKey: `demo-${subscription.id}-day-${day}`,
    createdAt: new Date(subscription.anchor.getTime() + (day + 1) * DAY_MS),
  })).filter((record) => record.usedAt < now);
  await tx.insert(usageRecords).values(records);
  await tx.insert(usagePeriods).values({
    subscriptionId: subscription.id,
    periodIndex: period.index,
    quantity: records.reduce((sum, r) => sum + r.quantity, 0),
  });
  await tx.update(subscriptions).set({ spendingCap: "100" }).where(eq(subscriptions.id, subscription.id));
}
