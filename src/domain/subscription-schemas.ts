import { z } from "zod";
import { billingIntervals, subscriptionEndReasons, subscriptionStatuses } from "#domain/subscriptions";

/** A renewal made and waiting for its payment: the order the buyer pays it through. */
export const renewalDueSchema = z.object({
  orderId: z.string(),
  /** The renewal's total with tax, in USD. */
  total: z.string(),
  /** When the period it pays for starts: paid by then, nothing lapses. */
  dueAt: z.string(),
});
export type RenewalDue = z.infer<typeof renewalDueSchema>;

/** One subscription on its buyer's renewal desk; dates are ISO strings, amounts USD. */
export const subscriptionSchema = z.object({
  id: z.string(),
  productId: z.string().nullable(),
  productName: z.string(),
  imageUrl: z.string().nullable(),
  vendor: z.string().nullable(),
  /** The plan it is on; null for one bought before plans. */
  planName: z.string().nullable(),
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
  /** The tax rate its renewals are charged at (the order that started it), a decimal string ("0.0500"). */
  taxRate: z.string(),
  /** When it ended (or ends, for an unpaid renewal past due); null otherwise. */
  endsAt: z.string().nullable(),
  endReason: z.enum(subscriptionEndReasons).nullable(),
  /** The renewal invoiced and not yet paid, if any. */
  due: renewalDueSchema.nullable(),
  /** The order that started it. */
  orderId: z.string(),
  licenseKeys: z.array(z.string()),
});
export type Subscription = z.infer<typeof subscriptionSchema>;

export const subscriptionListSchema = z.object({
  items: z.array(subscriptionSchema),
  /** The server's now as it answered (ISO): the desk's renewal calendar counts from it, as the downloads do. */
  asOf: z.string(),
});
export type SubscriptionList = z.infer<typeof subscriptionListSchema>;

export const subscriptionAnswerSchema = z.object({ subscription: subscriptionSchema });
