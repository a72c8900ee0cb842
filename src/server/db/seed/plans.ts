import { and, eq, inArray } from "drizzle-orm";
import type { MeterUnit, UsageTier } from "#domain/metering";
import type { Database } from "#server/db/client";
import { productPlans } from "#server/db/schema/subscriptions";
import { addMissingFirstPlans } from "#server/modules/plans/repository";

/** Demo products whose plans offer a free trial, and how long. */
const TRIALS: Readonly<Record<string, number>> = {
  "nimbus-crm-pro": 14,
  "corvane-helpdesk": 14,
  "latticepoint-bi-studio": 14,
  "kestrelbyte-goals": 30,
  "orbitide-webhook-relay": 7,
};

/**
 * Demo products whose first plan is metered (decision 0029): its monthly fee, then each unit of use,
 * graduated.
 */
export const METERED: Readonly<Record<string, { unit: MeterUnit; tiers: UsageTier[] }>> = {
  "cinderpath-threat-intel-api": {
    unit: "call",
    tiers: [
      { upTo: 10_000, unitPrice: "0.002" },
      { upTo: 100_000, unitPrice: "0.0015" },
      { upTo: null, unitPrice: "0.001" },
    ],
  },
};

/** Demo products that also sell a yearly plan: ten months' price for twelve, seats as their monthly plan. */
const YEARLY: readonly string[] = ["nimbus-crm-pro", "corvane-helpdesk", "orbitide-webhook-relay"];

/**
 * The demo catalogue's plans (decision 0027): every recurring product's first plan from its price, as
 * the migration that brought plans made them; free trials on a few; a yearly plan beside the monthly
 * one on others, so the product page shows a choice of plans and a trial on a first start.
 */
export async function seedDemoPlans(db: Database, idOf: (key: string) => string): Promise<void> {
  await addMissingFirstPlans(db);
  const firstPlans = await db
    .select()
    .from(productPlans)
    .where(
      and(
        inArray(
          productPlans.productId,
          [...new Set([...Object.keys(TRIALS), ...YEARLY, ...Object.keys(METERED)])].map(idOf),
        ),
        eq(productPlans.position, 0),
      ),
    );
  for (const [key, days] of Object.entries(TRIALS)) {
    const plan = firstPlans.find((p) => p.productId === idOf(key));
    if (plan && plan.trialDays === 0)
      await db.update(productPlans).set({ trialDays: days }).where(eq(productPlans.id, plan.id));
  }
  for (const [key, meter] of Object.entries(METERED)) {
    const plan = firstPlans.find((p) => p.productId === idOf(key));
    if (plan && !plan.meterUnit)
      await db
        .update(productPlans)
        // As `planInputSchema` saves a metered plan: one per subscriber (no seats) and no trial.
        .set({
          name: "Platform + lookups",
          meterUnit: meter.unit,
          usageTiers: meter.tiers,
          perSeat: false,
          minSeats: 1,
          maxSeats: 1,
          trialDays: 0,
        })
        .where(eq(productPlans.id, plan.id));
  }
  const haveYearly = await db
    .select({ productId: productPlans.productId })
    .from(productPlans)
    .where(and(inArray(productPlans.productId, YEARLY.map(idOf)), eq(productPlans.interval, "year")));
  const yearly = YEARLY.flatMap((key) => {
    const plan = firstPlans.find((p) => p.productId === idOf(key));
    if (!plan || haveYearly.some((row) => row.productId === plan.productId)) return [];
    return [
      {
        productId: plan.productId,
        name: "Yearly",
        interval: "year" as const,
        price: (Number(plan.price) * 10).toFixed(2),
        perSeat: plan.perSeat,
        minSeats: plan.minSeats,
        maxSeats: plan.maxSeats,
        trialDays: TRIALS[key] ?? 0,
        position: 1,
      },
    ];
  });
  if (yearly.length > 0) await db.insert(productPlans).values(yearly);
}
