import { z } from "zod";
import { usageSummarySchema } from "#domain/metering";
import { savedMethodKinds } from "#domain/payment-methods";
import {
  billingIntervals,
  subscriptionChangeKinds,
  subscriptionEndReasons,
  subscriptionStatuses,
} from "#domain/subscriptions";

/** A renewal made and waiting for its payment: the order the buyer pays it through. */
export const renewalDueSchema = z.object({
  orderId: z.string(),
  /** The renewal's total with tax, in USD. */
  total: z.string(),
  /** When the period it pays for starts: paid by then, nothing lapses. */
  dueAt: z.string(),
});
export type RenewalDue = z.infer<typeof renewalDueSchema>;

/** A committed change waiting to happen: for its order to be paid, or for the period's end. */
export const pendingChangeSchema = z.object({
  status: z.enum(["awaiting_payment", "scheduled"]),
  planName: z.string().nullable(),
  interval: z.enum(billingIntervals),
  unitPrice: z.string(),
  quantity: z.number().int(),
  /** Whether the quantity counts seats (a per-seat plan) or copies (a flat one). */
  perSeat: z.boolean(),
  /** When the new terms start: once paid, or at the period's end. */
  effectiveAt: z.string(),
  /** The order to pay for a change that costs something now. */
  orderId: z.string().nullable(),
});
export type PendingChange = z.infer<typeof pendingChangeSchema>;

/** One subscription on its buyer's renewal desk; dates are ISO strings, amounts USD. */
export const subscriptionSchema = z.object({
  id: z.string(),
  productId: z.string().nullable(),
  productName: z.string(),
  imageUrl: z.string().nullable(),
  vendor: z.string().nullable(),
  /** The plan it is on; null for one bought before plans. */
  planName: z.string().nullable(),
  planId: z.string().nullable(),
  interval: z.enum(billingIntervals),
  /** The price per interval of one unit (one seat for a per-user plan), as agreed when it started. */
  unitPrice: z.string(),
  quantity: z.number().int(),
  /**
   * What the next renewal costs with tax (USD): the invoiced renewal's total, or until then the price at
   * the tax of the order that started it; null when no renewal comes.
   */
  nextTotal: z.string().nullable(),
  /** A new price per unit announced to the buyer, and the first renewal due date it applies to. */
  priceChange: z.object({ unitPrice: z.string(), from: z.string() }).nullable(),
  status: z.enum(subscriptionStatuses),
  startedAt: z.string(),
  /** When its free trial ends (or ended), and its first period starts; null without a trial. */
  trialEndsAt: z.string().nullable(),
  /** The end of the last period paid for: the next renewal's due date while it renews. */
  paidThrough: z.string(),
  /**
   * The moment its periods are counted from (its start, or its trial's end): every renewal falls on a
   * boundary `addIntervals(anchor, interval, n)`.
   */
  anchor: z.string(),
  /** The period that starts at `anchor` (a change of interval starts counting from a new anchor). */
  anchorPeriod: z.number().int(),
  /** A change of plan or seats committed and not yet in effect. */
  pendingChange: pendingChangeSchema.nullable(),
  /** The tax rate its renewals are charged at (the order that started it), a decimal string ("0.0500"). */
  taxRate: z.string(),
  /** When it ended (or ends, for an unpaid renewal past due); null otherwise. */
  endsAt: z.string().nullable(),
  endReason: z.enum(subscriptionEndReasons).nullable(),
  /** The renewal invoiced and not yet paid, if any. */
  due: renewalDueSchema.nullable(),
  /**
   * The saved method its renewals are charged to: its own choice (`chosen`) or the buyer's default; null
   * when the buyer pays each renewal by hand. `declined`: refused for good, so renewals wait for the buyer.
   */
  paymentMethod: z
    .object({
      id: z.string(),
      kind: z.enum(savedMethodKinds),
      label: z.string(),
      chosen: z.boolean(),
      declined: z.boolean(),
    })
    .nullable(),
  /** The order that started it. */
  orderId: z.string(),
  licenseKeys: z.array(z.string()),
  /** A metered subscription's current period: use, estimate and spending cap (decision 0029); null otherwise. */
  usage: usageSummarySchema.nullable(),
});
export type Subscription = z.infer<typeof subscriptionSchema>;

export const subscriptionListSchema = z.object({
  items: z.array(subscriptionSchema),
  /** The server's now as it answered (ISO): the desk's renewal calendar counts from it, as the downloads do. */
  asOf: z.string(),
});
export type SubscriptionList = z.infer<typeof subscriptionListSchema>;

export const subscriptionAnswerSchema = z.object({ subscription: subscriptionSchema });

/** A change of plan or seats the buyer asks the price of (and then commits). */
export const subscriptionChangeInputSchema = z.object({
  planId: z.uuid("Choose a plan"),
  seats: z
    .number("Enter a number of seats")
    .int("Enter a whole number of seats")
    .min(1, "At least 1 seat")
    .max(99, "At most 99 seats"),
});
export type SubscriptionChangeInput = z.infer<typeof subscriptionChangeInputSchema>;

/**
 * What a change costs, priced at `pricedAt` (decision 0027): the credit for the unused part of the
 * current period, the charge for the new terms, what is due now with tax, when the new terms start and
 * what the next renewal costs. `token` stands for all of it and the subscription as it was priced: the
 * commit presents it, and a change in between makes it stale (409 `PREVIEW_STALE`).
 */
export const subscriptionChangePreviewSchema = z.object({
  kind: z.enum(subscriptionChangeKinds),
  pricedAt: z.string(),
  planId: z.string(),
  planName: z.string(),
  interval: z.enum(billingIntervals),
  perSeat: z.boolean(),
  seats: z.number().int(),
  /** The new price per unit per interval (USD). */
  unitPrice: z.string(),
  creditCents: z.number().int(),
  chargeCents: z.number().int(),
  /** `chargeCents` − `creditCents`, before tax. */
  dueCents: z.number().int(),
  /** What is charged now, tax and total (USD). */
  dueTax: z.string(),
  dueTotal: z.string(),
  taxRate: z.string(),
  /** When the new terms start. */
  effectiveAt: z.string(),
  /** The next renewal after the change, and what it costs with tax (USD). */
  nextChargeAt: z.string(),
  nextTotal: z.string(),
  token: z.string(),
});
export type SubscriptionChangePreview = z.infer<typeof subscriptionChangePreviewSchema>;

/** Commits a change as previewed: the same plan and seats, with the preview's moment and token. */
export const subscriptionChangeCommitSchema = subscriptionChangeInputSchema.extend({
  pricedAt: z.iso.datetime({ offset: true }),
  token: z.string().min(1).max(128),
});
export type SubscriptionChangeCommit = z.infer<typeof subscriptionChangeCommitSchema>;

export const subscriptionChangeAnswerSchema = z.object({
  subscription: subscriptionSchema,
  /** `applied` at once, `scheduled` for the period's end, or `awaiting_payment` of `orderId`. */
  change: z.object({
    status: z.enum(["applied", "scheduled", "awaiting_payment"]),
    orderId: z.string().nullable(),
    /**
     * What charging the subscription's saved method for it came to: `paid` (the change is applied),
     * `declined` (with the provider's reason: the buyer pays `orderId` on a payment page), or null when no
     * method was charged (nothing due, no saved method, or a bank transfer).
     */
    charged: z.enum(["paid", "declined"]).nullable(),
    declineReason: z.string().nullable(),
  }),
});
