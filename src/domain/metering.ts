import { z } from "zod";
import { type MeterUnit, meterUnitNames, meterUnits, type PayAsYouGo } from "#domain/meter-units";
import { fromUnits, MONEY_COLUMN_MAX, MONEY_SCALE, toUnits } from "#domain/money";
import { type Anchored, boundary, type Period, periodAt, USAGE_GRACE_MS } from "#domain/subscriptions";

export { USAGE_GRACE_MS };

/**
 * Metered plans (issue 33, decision 0029): a plan may charge for use, reported by its seller, on top of
 * (or instead of) its fixed fee per period. Use is rated at the end of each period, in arrears, by
 * graduated tiers, and invoiced with the next period's fixed fee on the renewal.
 */

export { type MeterUnit, meterUnitNames, meterUnits } from "#domain/meter-units";

/**
 * Each unit as a plan's form offers it. Apart from the names: those are drawn with every price, on every
 * page (the home route's JavaScript budget), the form's labels only in the seller's plan editor.
 */
export const meterUnitLabels: Record<MeterUnit, string> = {
  call: "Per API call",
  minute: "Per minute",
  gb: "Per GB",
  unit: "Per unit",
};

/** "12,345 calls", "1 GB". */
export function usageLabel(quantity: number, unit: MeterUnit): string {
  const names = meterUnitNames[unit];
  return `${quantity.toLocaleString("en-US")} ${quantity === 1 ? names.one : names.many}`;
}

/** A pay-as-you-go listing from its first plan's meter: null when the plan has a fee or no meter. */
export function payAsYouGoOf(plan: {
  price: string | number;
  meter: { unit: MeterUnit; tiers: readonly { unitPrice: string }[] } | null;
}): PayAsYouGo | null {
  if (!plan.meter || toUnits(plan.price) > 0 || plan.meter.tiers.length === 0) return null;
  const prices = plan.meter.tiers.map((tier) => toUnits(tier.unitPrice));
  return {
    unit: plan.meter.unit,
    unitPrice: fromUnits(Math.min(...prices)),
    tiered: new Set(prices).size > 1,
  };
}

/**
 * One price tier: each unit used beyond the previous tier's `upTo`, up to and including this one's, costs
 * `unitPrice` (USD, at most four decimals: $0.004 a call is exact). The last tier has no `upTo`.
 */
export type UsageTier = { upTo: number | null; unitPrice: string };

/**
 * The most tiers a plan may have; the most units one subscription's period may count, and the highest
 * unit price: together they keep a period's cost inside what an amount column holds ($10 billion).
 */
export const MAX_TIERS = 5;
export const MAX_PERIOD_USAGE = 100_000_000;
export const MAX_UNIT_PRICE = "99.9999";

/**
 * What a period's use costs, graduated: each tier's units at its price, summed exactly in ten-thousandths
 * of a dollar, then rounded half up to the cent once. Answers a money amount ("12.3400"); zero or
 * less (corrections may only take a period back to zero) costs nothing.
 */
export function rateUsage(quantity: number, tiers: readonly UsageTier[]): string {
  if (!Number.isSafeInteger(quantity)) throw new RangeError(`Not a whole quantity: ${quantity}`);
  let left = BigInt(Math.max(0, quantity));
  let from = 0n;
  let units = 0n;
  for (const tier of tiers) {
    if (left === 0n) break;
    const span = tier.upTo === null ? left : BigInt(tier.upTo) - from;
    const taken = span < left ? span : left;
    units += taken * BigInt(toUnits(tier.unitPrice));
    left -= taken;
    if (tier.upTo !== null) from = BigInt(tier.upTo);
  }
  if (left > 0n) throw new RangeError("The last tier must have no upper bound");
  const cent = BigInt(10 ** (MONEY_SCALE - 2));
  const rounded = ((units + cent / 2n) / cent) * cent;
  if (rounded > BigInt(toUnits(MONEY_COLUMN_MAX)))
    throw new RangeError(`A period's use costs more than an amount can hold: ${quantity} units`);
  return fromUnits(Number(rounded));
}

/**
 * The share of a spending cap a period's use has reached, as the alert levels it passed: 50%, 80% and
 * 100%. Each alert is sent once per period, at the first record that passes it.
 */
export const CAP_ALERT_LEVELS = [50, 80, 100] as const;
export type CapAlertLevel = (typeof CAP_ALERT_LEVELS)[number];

/** How many of the alert levels `spent` has reached of `cap` (0 to 3); no cap reaches none. */
export function capLevelsReached(spent: string, cap: string | null): number {
  if (cap === null) return 0;
  const capUnits = toUnits(cap);
  const spentUnits = toUnits(spent);
  return CAP_ALERT_LEVELS.filter((level) => spentUnits * 100 >= capUnits * level).length;
}

/** How far ahead of the server's clock a record's time may be (the seller's clock may run fast). */
export const USAGE_CLOCK_SKEW_MS = 5 * 60 * 1000;
/** The most records one batch may report. */
export const MAX_USAGE_BATCH = 1000;

const unitPrice = z
  .string({ error: 'Give the unit price as a decimal string, e.g. "0.004"' })
  .trim()
  // Stops here when it is not a price: the check after it reads the text as money.
  .regex(/^\d{1,2}(\.\d{1,4})?$/, {
    error: `A unit price is at most $${MAX_UNIT_PRICE}, with at most four decimals, e.g. 0.004`,
    abort: true,
  })
  .refine((v) => toUnits(v) > 0, "A unit price must be more than 0");

/** A metered plan's terms as its seller edits them: what it counts, and its tiers in order. */
export const meterInputSchema = z.object({
  unit: z.enum(meterUnits, { error: "Choose what the plan counts" }),
  tiers: z
    .array(
      z.object({
        upTo: z
          .number({ error: "A tier's limit must be a whole number" })
          .int("A tier's limit must be a whole number")
          .positive("A tier's limit must be at least 1")
          .max(MAX_PERIOD_USAGE, "A tier's limit is too large")
          .nullable(),
        unitPrice,
      }),
    )
    .min(1, "A metered plan needs a price per unit")
    .max(MAX_TIERS, `A metered plan has at most ${MAX_TIERS} tiers`)
    .superRefine((tiers, ctx) => {
      tiers.forEach((tier, index) => {
        const last = index === tiers.length - 1;
        if (last && tier.upTo !== null)
          ctx.addIssue({ code: "custom", path: [index, "upTo"], message: "The last tier has no limit" });
        if (!last && tier.upTo === null)
          ctx.addIssue({ code: "custom", path: [index, "upTo"], message: "Only the last tier has no limit" });
        const before = tiers[index - 1]?.upTo;
        if (tier.upTo !== null && before != null && tier.upTo <= before)
          ctx.addIssue({
            code: "custom",
            path: [index, "upTo"],
            message: "Each tier's limit must be above the one before",
          });
      });
    }),
});
export type MeterInput = z.input<typeof meterInputSchema>;

/** A plan's meter as buyers and the desk read it. */
export const meterSchema = z.object({
  unit: z.enum(meterUnits),
  tiers: z.array(z.object({ upTo: z.number().int().nullable(), unitPrice: z.string() })),
});
export type Meter = z.infer<typeof meterSchema>;

/** What the seller's system reports: how much of what a subscription counts was used, and when. */
export const usageRecordInputSchema = z
  .object({
    /** The subscription used, or instead the license key its software runs under. */
    subscriptionId: z.uuid("subscriptionId must be a subscription's id").optional(),
    licenseKey: z.string().trim().max(64, "A license key is at most 64 characters").optional(),
    /** Whole units; a negative quantity corrects earlier records and needs a reason. */
    quantity: z
      .number({ error: "quantity must be a whole number" })
      .int("quantity must be a whole number")
      .refine((n) => n !== 0, "quantity must not be 0")
      .refine((n) => Math.abs(n) <= MAX_PERIOD_USAGE, "quantity is too large"),
    /** When the use happened (ISO 8601); it decides the period the record counts in. */
    usedAt: z.iso.datetime({ offset: true, error: "usedAt must be an ISO 8601 date-time" }),
    /** The seller's own key for the record: the same key again is the same record, counted once. */
    idempotencyKey: z
      .string({ error: "idempotencyKey is required" })
      .trim()
      .min(1, "idempotencyKey is required")
      .max(100, "idempotencyKey is at most 100 characters"),
    reason: z.string().trim().max(200, "reason is at most 200 characters").optional(),
  })
  .superRefine((record, ctx) => {
    if ((record.subscriptionId === undefined) === (record.licenseKey === undefined))
      ctx.addIssue({
        code: "custom",
        path: ["subscriptionId"],
        message: "Give either subscriptionId or licenseKey",
      });
    if (record.quantity < 0 && !record.reason)
      ctx.addIssue({ code: "custom", path: ["reason"], message: "A correction needs a reason" });
  });
export type UsageRecordInput = z.input<typeof usageRecordInputSchema>;

export const usageBatchInputSchema = z.object({
  records: z
    .array(usageRecordInputSchema)
    .min(1, "Send at least one record")
    .max(MAX_USAGE_BATCH, `A batch has at most ${MAX_USAGE_BATCH} records`),
});

/** How each record of a report ended: counted now, counted before (same key), or refused and why. */
export const usageRecordOutcomes = ["recorded", "duplicate", "refused"] as const;
export const usageRecordResultSchema = z.object({
  status: z.enum(usageRecordOutcomes),
  /** The record's id, for a recorded or duplicate one. */
  id: z.string().nullable(),
  /** For a refused record: `USAGE_UNKNOWN_SUBSCRIPTION`, `USAGE_NOT_METERED`, `USAGE_TOO_LATE`, … */
  code: z.string().nullable(),
  message: z.string().nullable(),
});
export type UsageRecordResult = z.infer<typeof usageRecordResultSchema>;

export const usageBatchAnswerSchema = z.object({
  recorded: z.number().int(),
  duplicates: z.number().int(),
  refused: z.number().int(),
  /** One result per record, in the order sent. */
  results: z.array(usageRecordResultSchema),
});
export type UsageBatchAnswer = z.infer<typeof usageBatchAnswerSchema>;

/** A metered subscription's current period as its buyer's desk shows it. */
export const usageSummarySchema = z.object({
  unit: z.enum(meterUnits),
  tiers: meterSchema.shape.tiers,
  periodStart: z.string(),
  periodEnd: z.string(),
  /** Units used so far this period (corrections included). */
  quantity: z.number().int(),
  /** What that use costs so far, before tax (USD). */
  usageAmount: z.string(),
  /** The period's estimated bill: the fixed fee (if any) and the use so far, before tax. */
  estimate: z.string(),
  /** The buyer's spending cap on the period's use (USD), or null. */
  cap: z.string().nullable(),
  /** The alert levels reached this period: 50, 80, 100. */
  alerts: z.array(z.number().int()),
  overCap: z.boolean(),
});
export type UsageSummary = z.infer<typeof usageSummarySchema>;

/** The buyer's spending cap per period of use; null removes it. */
export const spendingCapInputSchema = z.object({
  cap: z
    .string({ error: "Enter the cap in dollars" })
    .trim()
    .regex(/^\d{1,7}(\.\d{1,2})?$/, "Enter the cap in dollars, with at most 2 decimals")
    .refine((v) => Number(v) >= 1, "A cap must be at least $1")
    .nullable(),
});
export type SpendingCapInput = z.input<typeof spendingCapInputSchema>;

/** The period of a subscription's use at `at`, counted as its renewals count them (`anchorPeriod` on). */
export function usagePeriodAt(s: Anchored, at: Date): Period {
  const period = periodAt(s.anchor, s.interval, at);
  return { ...period, index: period.index + s.anchorPeriod };
}

/** The start and end of period `index` of a subscription. */
export function usagePeriod(s: Anchored, index: number): Period {
  return { index, start: boundary(s, index), end: boundary(s, index + 1) };
}

/**
 * What the desk shows of a metered subscription's period: the use so far, what it costs, the estimated
 * bill (the fixed fee for the period and the use, before tax), and where the spending cap stands.
 */
export function usageSummary(
  terms: { unit: MeterUnit; tiers: UsageTier[]; fee: string; cap: string | null },
  period: Period,
  used: { quantity: number; alertsSent: number },
): UsageSummary {
  const usageAmount = rateUsage(used.quantity, terms.tiers);
  const reached = capLevelsReached(usageAmount, terms.cap);
  return {
    unit: terms.unit,
    tiers: terms.tiers,
    periodStart: period.start.toISOString(),
    periodEnd: period.end.toISOString(),
    quantity: used.quantity,
    usageAmount,
    estimate: fromUnits(toUnits(terms.fee) + toUnits(usageAmount)),
    cap: terms.cap,
    alerts: CAP_ALERT_LEVELS.slice(0, Math.max(reached, used.alertsSent)),
    overCap: reached >= CAP_ALERT_LEVELS.length,
  };
}

/** A pay-as-you-go listing as the API carries it (`PayAsYouGo`, in #domain/meter-units). */
export const payAsYouGoSchema = z.object({
  unit: z.enum(meterUnits),
  unitPrice: z.string(),
  tiered: z.boolean(),
});
