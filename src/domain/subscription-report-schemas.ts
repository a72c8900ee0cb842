import { z } from "zod";
import { paged, pageNumber } from "#domain/paging";
import { billingIntervals, subscriptionStatuses } from "#domain/subscriptions";

/**
 * The seller's and the admin's subscription views (decision 0027): figures from
 * `src/domain/subscription-metrics.ts`, the past-due renewals and the live subscriptions. Dates are ISO
 * strings; amounts are USD with 4 decimals, before tax unless they say otherwise.
 */

/** Past-due renewals and live subscriptions, each list a page. */
export const SUBSCRIPTION_REPORT_PAGE_SIZE = 25;

/** The statuses of a subscription that has not ended. */
export const liveSubscriptionStatuses = subscriptionStatuses.filter(
  (status): status is Exclude<(typeof subscriptionStatuses)[number], "ended"> => status !== "ended",
);
export type LiveSubscriptionStatus = (typeof liveSubscriptionStatuses)[number];

/** The figures at the server's now (`subscriptionFigures`): counts, and MRR with this month's movement. */
export const subscriptionFiguresSchema = z.object({
  /** The first moment (UTC) of the month the movement is counted over. */
  monthStart: z.string(),
  active: z.number().int(),
  cancelling: z.number().int(),
  pastDue: z.number().int(),
  endedThisMonth: z.number().int(),
  /** Of those that ended this month, the ones whose renewal stayed unpaid. */
  endedUnpaidThisMonth: z.number().int(),
  trialing: z.number().int(),
  trialsConvertedThisMonth: z.number().int(),
  trialsLostThisMonth: z.number().int(),
  /** Monthly recurring revenue before tax: a yearly subscription counts a twelfth of its period. */
  mrr: z.string(),
  mrrAtMonthStart: z.string(),
  /** Of subscriptions started this month. */
  newMrr: z.string(),
  /** Of changes of plan or seats applied this month: the rise, and the fall, of their monthly amount. */
  expansionMrr: z.string(),
  contractionMrr: z.string(),
  /** Of subscriptions that ended this month. */
  churnedMrr: z.string(),
});
export type SubscriptionReportFigures = z.infer<typeof subscriptionFiguresSchema>;

/** A past-due renewal as its seller sees it: no e-mail or other personal data of the buyer. */
export const sellerPastDueSchema = z.object({
  subscriptionId: z.string(),
  productId: z.string().nullable(),
  productName: z.string(),
  /** The buyer's first name, or "A buyer". */
  buyer: z.string(),
  interval: z.enum(billingIntervals),
  quantity: z.number().int(),
  /** What the renewal asks the buyer to pay, tax included. */
  amountDue: z.string(),
  dueAt: z.string(),
  /** Reminders the renewal job has sent since the due date. */
  remindersSent: z.number().int(),
  /** When the job reminds the buyer next; null when the next step is the end. */
  nextReminderAt: z.string().nullable(),
  /** When the subscription ends if the renewal is still unpaid. */
  endsAt: z.string(),
});
export type SellerPastDue = z.infer<typeof sellerPastDueSchema>;

/** A subscription that has not ended, as its seller sees it. */
export const sellerLiveSubscriptionSchema = z.object({
  subscriptionId: z.string(),
  productId: z.string().nullable(),
  productName: z.string(),
  /** The buyer's first name, or "A buyer". */
  buyer: z.string(),
  interval: z.enum(billingIntervals),
  quantity: z.number().int(),
  status: z.enum(liveSubscriptionStatuses),
  /** What a period costs, before tax. */
  periodAmount: z.string(),
  /** What it counts in MRR. */
  monthlyAmount: z.string(),
  startedAt: z.string(),
  /** The next renewal's due date while it renews (active); null otherwise. */
  renewsAt: z.string().nullable(),
  /** When it ends: the paid period's end (cancelling), or the last reminder's day if unpaid (past due). */
  endsAt: z.string().nullable(),
});
export type SellerLiveSubscription = z.infer<typeof sellerLiveSubscriptionSchema>;

/** `GET /seller/subscriptions`: `page` pages the live subscriptions, `duePage` the past-due renewals. */
export const sellerSubscriptionsQuery = z.object({ page: pageNumber, duePage: pageNumber });

export const sellerSubscriptionReportSchema = z.object({
  figures: subscriptionFiguresSchema,
  pastDue: paged(sellerPastDueSchema),
  live: paged(sellerLiveSubscriptionSchema),
});
export type SellerSubscriptionReport = z.infer<typeof sellerSubscriptionReportSchema>;

/** Who sells a subscribed product, for admins: the vendor named on the order and the seller's account. */
const sellerOf = {
  vendor: z.string().nullable(),
  /** Null for a product Stackbay sells itself, or a seller account that is gone. */
  sellerEmail: z.string().nullable(),
};

/** One renewal of the dunning queue: a past-due renewal, with whom to reach about it. */
export const dunningEntrySchema = sellerPastDueSchema.omit({ buyer: true }).extend({
  buyerName: z.string(),
  buyerEmail: z.string(),
  ...sellerOf,
  /** The unpaid renewal order; null when none was made (its original order is gone). */
  renewalOrderId: z.string().nullable(),
  /**
   * The saved card or PayPal account the renewal is charged on ("Visa •••• 4242"), which an admin may
   * charge again now; null when none can be charged (paid by hand, or declined for good).
   */
  chargedTo: z.string().nullable(),
});
export type DunningEntry = z.infer<typeof dunningEntrySchema>;

export const adminLiveSubscriptionSchema = sellerLiveSubscriptionSchema.omit({ buyer: true }).extend({
  buyerName: z.string(),
  buyerEmail: z.string(),
  ...sellerOf,
});
export type AdminLiveSubscription = z.infer<typeof adminLiveSubscriptionSchema>;

/**
 * `GET /admin/subscriptions`: `q` finds subscriptions by the buyer's e-mail or name, the product's name or
 * the subscription's id in both lists, `status` narrows the live list; the figures are always the whole
 * platform's.
 */
export const adminSubscriptionsQuery = z.object({
  page: pageNumber,
  duePage: pageNumber,
  q: z.string().trim().max(200, "Search for at most 200 characters").optional(),
  status: z
    .enum(liveSubscriptionStatuses, { error: "Status must be active, cancelling or past_due" })
    .optional(),
});
export type AdminSubscriptionsQuery = z.output<typeof adminSubscriptionsQuery>;

export const adminSubscriptionReportSchema = z.object({
  figures: subscriptionFiguresSchema,
  dunning: paged(dunningEntrySchema),
  live: paged(adminLiveSubscriptionSchema),
});
export type AdminSubscriptionReport = z.infer<typeof adminSubscriptionReportSchema>;

/** `POST /admin/subscriptions/:id/remind`: the reminder queued for the buyer. */
export const subscriptionReminderAnswerSchema = z.object({
  /** The address it goes to: the billing e-mail of the order that started the subscription. */
  sentTo: z.string(),
  sentAt: z.string(),
});
export type SubscriptionReminderAnswer = z.infer<typeof subscriptionReminderAnswerSchema>;

/** `POST /admin/subscriptions/:id/retry`: what charging the saved method again came to. */
export const subscriptionRetryAnswerSchema = z.object({
  charged: z.enum(["paid", "pending", "declined"]),
  /** The provider's reason for a decline. */
  reason: z.string().nullable(),
});
export type SubscriptionRetryAnswer = z.infer<typeof subscriptionRetryAnswerSchema>;

/** `POST /admin/subscriptions/:id/cancel`: the subscription as it ended. */
export const adminCancelAnswerSchema = z.object({
  subscriptionId: z.string(),
  endedAt: z.string(),
  /** The unpaid renewal order it cancelled, if there was one. */
  cancelledRenewalOrderId: z.string().nullable(),
  /** Licence keys revoked. */
  revokedLicenses: z.number().int(),
});
export type AdminCancelAnswer = z.infer<typeof adminCancelAnswerSchema>;
