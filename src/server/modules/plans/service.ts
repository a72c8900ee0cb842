import type { FastifyInstance } from "fastify";
import type { z } from "zod";
import type { ProductPlan } from "#domain/catalog-schemas";
import { lineTotal } from "#domain/money";
import type { plansInputSchema } from "#domain/plan-schemas";
import type { PricingUnit } from "#domain/pricing-units";
import { absoluteUrl, paths } from "#domain/routes";
import { firstRenewalAtNewPrice, isPerSeatUnit, planUnit, recurringIntervalOf } from "#domain/subscriptions";
import type { Transaction } from "#server/db/client";
import { publicUrl } from "#server/env";
import { NotFound } from "#server/errors";
import type { Mailer } from "#server/mail/mailer";
import { priceChangeNoticeMail } from "#server/mail/renewal-mail";
import {
  addMissingFirstPlans,
  announcePrice,
  archivePlansExcept,
  insertPlan,
  lockLivePlans,
  meterOf,
  type PlanRow,
  type PlanValues,
  setListedPrice,
  subscriptionsToNotify,
  updatePlan,
} from "#server/modules/plans/repository";

/** What plan edits need beyond their transaction: the mailer for price notices and the site's address. */
export type PlanDeps = { mailer: Mailer; origin: string };

export function planDepsOf(app: FastifyInstance): PlanDeps {
  return { mailer: app.mailer, origin: publicUrl(app.env) };
}

/**
 * The plan a recurring product is sold on when the buyer named none, or one they named: its live plans,
 * or, for a recurring product saved before plans without one, the plan its own price makes (no id, no
 * trial, 1 to 99). Null for a product sold once.
 */
export function planChoices(
  product: { price: string; pricingUnit: PricingUnit | null },
  stored: ProductPlan[] | undefined,
): (Omit<ProductPlan, "id"> & { id: string | null })[] | null {
  const interval = recurringIntervalOf(product.pricingUnit);
  if (!interval) return null;
  if (stored?.length) return stored;
  const perSeat = isPerSeatUnit(product.pricingUnit);
  return [
    {
      id: null,
      name: interval === "year" ? "Yearly" : "Monthly",
      interval,
      price: product.price,
      perSeat,
      minSeats: 1,
      maxSeats: 99,
      trialDays: 0,
      trialNeedsCard: false,
      meter: null,
    },
  ];
}

type PlansInput = z.output<typeof plansInputSchema>;

const valuesOf = (plan: PlansInput["plans"][number]): PlanValues => ({
  name: plan.name,
  interval: plan.interval,
  price: plan.price.toFixed(2),
  perSeat: plan.perSeat,
  minSeats: plan.minSeats,
  maxSeats: plan.maxSeats,
  trialDays: plan.trialDays,
  trialNeedsCard: plan.trialNeedsCard,
  meterUnit: plan.meter?.unit ?? null,
  usageTiers: plan.meter?.tiers.map((tier) => ({ upTo: tier.upTo, unitPrice: tier.unitPrice })) ?? null,
});

/**
 * Replaces a recurring product's plans with `input`, in its order (decision 0027): a plan with an id is
 * edited, one without is added, a live plan left out is archived (its subscribers keep it). The first
 * plan becomes the product's listed price and unit. Subscribers of a plan whose price changed are told
 * the old and new price and the first renewal at the new one, at least 7 (monthly) or 30 (yearly) days
 * ahead; until then they renew at the price they have. Answers the set before and after, for the audit.
 */
export async function replacePlans(
  tx: Transaction,
  deps: PlanDeps,
  product: { id: string; name: string },
  input: PlansInput,
  now: Date,
): Promise<{ before: Record<string, unknown>; after: Record<string, unknown> }> {
  const current = await lockLivePlans(tx, product.id);
  const byId = new Map(current.map((plan) => [plan.id, plan]));
  const unknown = input.plans.find((plan) => plan.id !== undefined && !byId.has(plan.id));
  if (unknown) throw new NotFound("That plan is not one of this product's plans.", "PLAN_NOT_FOUND");
  const kept: string[] = [];
  for (const [position, plan] of input.plans.entries()) {
    const values = valuesOf(plan);
    const before = plan.id ? byId.get(plan.id) : undefined;
    if (!before) {
      kept.push(await insertPlan(tx, product.id, values, position, now));
      continue;
    }
    kept.push(before.id);
    await updatePlan(tx, before.id, values, position, now);
    await announceIfRepriced(tx, deps, before, values, product.name, now);
  }
  await archivePlansExcept(tx, product.id, kept, now);
  const first = input.plans[0];
  if (first) await setListedPrice(tx, product.id, first.price.toFixed(2), planUnit(first), now);
  return {
    before: { plans: current.map(auditView) },
    after: { plans: input.plans.map((plan) => auditView(valuesOf(plan))) },
  };
}

/**
 * After the product form saved a price and pricing unit: a recurring product's first plan takes them
 * (one is made if it has none, with its subscribers told of a new price as any plan edit tells them); a
 * product no longer sold by the period has its plans archived, its subscribers keeping theirs.
 */
export async function followListedPrice(
  tx: Transaction,
  deps: PlanDeps,
  product: { id: string; name: string; price: string; pricingUnit: PricingUnit | null },
  now: Date,
): Promise<void> {
  const interval = recurringIntervalOf(product.pricingUnit);
  const current = await lockLivePlans(tx, product.id);
  if (!interval) {
    if (current.length > 0) await archivePlansExcept(tx, product.id, [], now);
    return;
  }
  const perSeat = isPerSeatUnit(product.pricingUnit);
  const price = Number(product.price).toFixed(2);
  const first = current[0];
  if (!first) {
    if (Number(price) > 0) await addMissingFirstPlans(tx, [product.id]);
    return;
  }
  if (Number(first.price) === Number(price) && first.interval === interval && first.perSeat === perSeat)
    return;
  const values: PlanValues = {
    ...first,
    price,
    interval,
    perSeat,
    ...(perSeat ? {} : { minSeats: 1, maxSeats: 99 }),
  };
  await updatePlan(tx, first.id, values, first.position, now);
  await announceIfRepriced(tx, deps, first, values, product.name, now);
}

const auditView = (plan: PlanValues) => ({
  name: plan.name,
  interval: plan.interval,
  price: Number(plan.price).toFixed(2),
  perSeat: plan.perSeat,
  minSeats: plan.minSeats,
  maxSeats: plan.maxSeats,
  trialDays: plan.trialDays,
  trialNeedsCard: plan.trialNeedsCard,
  meter: meterOf(plan),
});

/**
 * When a plan's price changed within its interval, tells each live subscriber its new price and from which renewal it applies; a subscriber
 * already paying the new price has any earlier announcement withdrawn instead.
 */
async function announceIfRepriced(
  tx: Transaction,
  deps: PlanDeps,
  before: PlanRow,
  after: PlanValues,
  productName: string,
  now: Date,
): Promise<void> {
  // Subscribers keep their own interval: a plan moved to another one is a new offer, not a new price for them.
  if (Number(before.price) === Number(after.price) || before.interval !== after.interval) return;
  const newPrice = after.price;
  const plan = { id: before.id, name: after.name };
  const desk = absoluteUrl(deps.origin, paths.dashboard("subscriptions"));
  for (const subscription of await subscriptionsToNotify(tx, plan.id)) {
    if (Number(subscription.unitPrice) === Number(newPrice)) {
      await announcePrice(tx, subscription.id, null, now);
      continue;
    }
    const from = firstRenewalAtNewPrice(subscription.anchor, subscription.interval, now);
    await announcePrice(tx, subscription.id, { nextUnitPrice: newPrice, priceChangeAt: from }, now);
    await deps.mailer.send(
      {
        to: subscription.email,
        ...priceChangeNoticeMail({
          fullName: subscription.fullName,
          productName,
          planName: plan.name,
          oldPrice: lineTotal(subscription.unitPrice, subscription.quantity),
          newPrice: lineTotal(newPrice, subscription.quantity),
          from,
          deskUrl: desk,
        }),
      },
      { tx },
    );
  }
}
