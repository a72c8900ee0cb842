import { z } from "zod";
import { productPlanSchema } from "#domain/catalog-schemas";
import { MAX_QUANTITY } from "#domain/checkout";
import { meterInputSchema } from "#domain/metering";
import { MAX_PRICE } from "#domain/product-admin";
import { billingIntervals, MAX_TRIAL_DAYS } from "#domain/subscriptions";

/** Plans a recurring product may offer at once. */
export const MAX_PLANS = 6;

const whole = (label: string, min: number, max: number) =>
  z
    .number({ error: `${label} must be a whole number` })
    .int(`${label} must be a whole number`)
    .min(min, `${label} must be at least ${min}`)
    .max(max, `${label} must be at most ${max}`);

/**
 * One plan of a recurring product (decision 0027), as its seller or an admin edits it: a price per
 * interval in whole cents (renewals are charged in cents), flat or per seat within a seat range, and a
 * free trial of up to 90 days. A flat plan's quantity counts copies, from 1 to the cart's limit; a per-seat
 * plan's counts seats, within its range. `id` names a plan
 * that exists; a plan without one is new.
 */
export const planInputSchema = z
  .object({
    id: z.uuid("Unknown plan").optional(),
    name: z
      .string({ error: "Name the plan" })
      .trim()
      .min(1, "Name the plan")
      .max(40, "A plan's name must be at most 40 characters"),
    interval: z.enum(billingIntervals, { error: "Choose monthly or yearly" }),
    price: z
      .number({ error: "Price must be a number" })
      .min(0, "Price must be more than 0")
      .max(MAX_PRICE, `Price must be at most $${MAX_PRICE.toLocaleString("en-US")}`)
      .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, "Price can have at most 2 decimals"),
    perSeat: z.boolean().default(false),
    minSeats: whole("Minimum seats", 1, MAX_QUANTITY).default(1),
    maxSeats: whole("Maximum seats", 1, MAX_QUANTITY).default(MAX_QUANTITY),
    trialDays: whole("Trial days", 0, MAX_TRIAL_DAYS).default(0),
    /** The trial needs a saved card: it converts by charging it, and one card gets one trial. */
    trialNeedsCard: z.boolean().default(false),
    /**
     * A metered plan's unit and tiers (decision 0029): its use is billed monthly in arrears, with the
     * price as its fixed fee, which may be 0 (pay as you go: buyers pay only for use); one per
     * subscriber, so no seats, and no trial.
     */
    meter: meterInputSchema.nullable().default(null),
  })
  // Only a metered plan may have no fee (pay as you go, decision 0029). Judged even when other fields
  // are wrong, as a price below a cent was by the price's own rule.
  .refine((plan) => plan.price > 0 || plan.meter !== null, {
    path: ["price"],
    message: "Price must be more than 0, unless the plan is metered (buyers then pay only for use)",
    when: ({ value }) => {
      const plan = value as { price?: unknown; meter?: unknown } | undefined;
      return plan?.price === 0 && !plan.meter;
    },
  })
  .transform((plan) =>
    plan.meter
      ? { ...plan, perSeat: false, minSeats: 1, maxSeats: 1, trialDays: 0 }
      : plan.perSeat
        ? plan
        : { ...plan, minSeats: 1, maxSeats: MAX_QUANTITY },
  )
  .transform((plan) => (plan.trialDays > 0 ? plan : { ...plan, trialNeedsCard: false }))
  .superRefine((plan, ctx) => {
    if (plan.meter && plan.interval !== "month")
      ctx.addIssue({ code: "custom", path: ["interval"], message: "A metered plan is billed monthly" });
    if (plan.minSeats > plan.maxSeats)
      ctx.addIssue({
        code: "custom",
        path: ["maxSeats"],
        message: "Maximum seats must be at least the minimum",
      });
  });
export type PlanInput = z.input<typeof planInputSchema>;

/** The whole set of a product's plans, in the order buyers see them; the first is its listed price. */
export const plansInputSchema = z.object({
  plans: z
    .array(planInputSchema)
    .min(1, "A recurring product needs at least one plan")
    .max(MAX_PLANS, `A product can offer at most ${MAX_PLANS} plans`)
    .superRefine((plans, ctx) => {
      const names = plans.map((p) => p.name.toLowerCase());
      names.forEach((name, index) => {
        if (names.indexOf(name) !== index)
          ctx.addIssue({ code: "custom", path: [index, "name"], message: "Each plan needs its own name" });
      });
    }),
});
export type PlansInput = z.input<typeof plansInputSchema>;

/** A plan as its editor reads it: as buyers see it, with its live subscriptions. */
export const planSchema = productPlanSchema.extend({
  /** Live subscriptions on the plan: the editor says a price change will be announced to them. */
  subscribers: z.number().int(),
});
export type Plan = z.infer<typeof planSchema>;

export const planListSchema = z.object({ plans: z.array(planSchema) });
export type PlanList = z.infer<typeof planListSchema>;
