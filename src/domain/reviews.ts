import { z } from "zod";
import { DAY_MS } from "#domain/dates";
import { paged, pageNumber } from "#domain/paging";

/** How long the author may change a review after writing it, on the server's clock. */
export const REVIEW_EDIT_DAYS = 30;
/** Distinct UTC days of license validations that earn the "Verified active use" badge. */
export const ACTIVE_USE_DAYS = 7;

/**
 * The rating sort's smoothing (decision 0012): a product's score is its reviews' mean pulled toward
 * PRIOR_MEAN as if it had PRIOR_WEIGHT more reviews of that many stars, so one five-star review does not
 * outrank hundreds of 4.8s. Fixed constants, not the site's mean, so one review changes one product's key.
 */
export const RATING_PRIOR_MEAN = 3;
export const RATING_PRIOR_WEIGHT = 5;

export type RatingSummary = {
  /** The plain mean, rounded to one decimal as products.rating stores it; null without reviews. */
  rating: string | null;
  reviewsCount: number;
  /** The Bayesian average to four decimals (products.rating_score); null without reviews. */
  score: string | null;
};

/** A product's figures from the count and star sum of its published reviews, in exact decimal text. */
export function summariseRatings(count: number, starSum: number): RatingSummary {
  if (
    !Number.isInteger(count) ||
    !Number.isInteger(starSum) ||
    count < 0 ||
    starSum < count ||
    starSum > count * 5
  )
    throw new RangeError("count and star sum must describe 1–5 star reviews");
  if (count === 0) return { rating: null, reviewsCount: 0, score: null };
  const tenths = roundHalfUp(starSum * 10, count);
  const priorStars = RATING_PRIOR_MEAN * RATING_PRIOR_WEIGHT;
  const tenThousandths = roundHalfUp((priorStars + starSum) * 10_000, RATING_PRIOR_WEIGHT + count);
  return { rating: decimal(tenths, 1), reviewsCount: count, score: decimal(tenThousandths, 4) };
}

/** numerator / denominator rounded half up, in integers only. */
function roundHalfUp(numerator: number, denominator: number): number {
  return Math.floor((2 * numerator + denominator) / (2 * denominator));
}

function decimal(units: number, places: number): string {
  const text = String(units).padStart(places + 1, "0");
  return `${text.slice(0, -places)}.${text.slice(-places)}`;
}

/** Whether the author may still edit a review written at `createdAt`. */
export function canEditReview(createdAt: Date, now: Date): boolean {
  return now.getTime() - createdAt.getTime() <= REVIEW_EDIT_DAYS * DAY_MS;
}

export function editableUntil(createdAt: Date): Date {
  return new Date(createdAt.getTime() + REVIEW_EDIT_DAYS * DAY_MS);
}

/** The UTC calendar day of an instant, as a license validation is recorded. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/**
 * Whether a bought item counts as received, so its buyer may review it: its order is paid, and it is
 * either delivered at payment (digital goods, and hardware bought before shipping was tracked: no
 * shipping state) or, for goods that travel, its shipping state has reached delivered.
 */
export function isReceived(item: { orderPaid: boolean; shippingState: string | null }): boolean {
  if (!item.orderPaid) return false;
  return item.shippingState === null || item.shippingState === "delivered";
}

/** Stars, title and text: the write and edit form and `POST`/`PATCH` bodies. */
export const reviewInputSchema = z.object({
  rating: z
    .number({ error: "Please choose a rating from 1 to 5 stars" })
    .int("Please choose a rating from 1 to 5 stars")
    .min(1, "Please choose a rating from 1 to 5 stars")
    .max(5, "Please choose a rating from 1 to 5 stars"),
  title: z
    .string({ error: "Title is required" })
    .trim()
    .min(1, "Title is required")
    .max(120, "Title must be at most 120 characters"),
  body: z
    .string({ error: "Review text is required" })
    .trim()
    .min(10, "Review text must be at least 10 characters")
    .max(5000, "Review text must be at most 5000 characters"),
});
export type ReviewInput = z.infer<typeof reviewInputSchema>;

/** The seller's one public reply. */
export const reviewReplySchema = z.object({
  text: z
    .string({ error: "Reply is required" })
    .trim()
    .min(1, "Reply is required")
    .max(2000, "Reply must be at most 2000 characters"),
});
export type ReviewReplyInput = z.infer<typeof reviewReplySchema>;

/** Why an admin hides or restores a review; the author reads it in the e-mail. */
export const reviewModerationSchema = z.object({
  reason: z
    .string({ error: "Reason is required" })
    .trim()
    .min(3, "Reason must be at least 3 characters")
    .max(500, "Reason must be at most 500 characters"),
});
export type ReviewModerationInput = z.infer<typeof reviewModerationSchema>;

export const reviewListQuery = z.object({ page: pageNumber });
export const REVIEW_PAGE_SIZE = 10;

export const reviewStatuses = ["published", "hidden"] as const;

export const reviewSchema = z.object({
  id: z.string(),
  productId: z.string(),
  rating: z.number(),
  title: z.string(),
  body: z.string(),
  authorFirstName: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** The review cites a paid order item that was not refunded; the badge says so. */
  verifiedPurchase: z.boolean(),
  /**
   * The cited purchase was refunded: the review stays visible, marked, but counts toward neither the
   * rating nor the sort, and can no longer be edited (decision 0012).
   */
  refunded: z.boolean(),
  verifiedActiveUse: z.boolean(),
  sellerReply: z.object({ text: z.string(), createdAt: z.string() }).nullable(),
  /** Hidden reviews reach only their author and admins, with the reason. */
  status: z.enum(reviewStatuses),
  hiddenReason: z.string().nullable(),
  isMine: z.boolean(),
  /** Until when the author may edit it; null for anyone else. */
  editableUntil: z.string().nullable(),
  reportedByMe: z.boolean(),
  /** How many people reported it: admins only, null for anyone else. */
  reportsCount: z.number().nullable(),
});
export type Review = z.infer<typeof reviewSchema>;

/** What the signed-in visitor may do on the product's reviews. */
export const reviewViewerSchema = z.object({
  signedIn: z.boolean(),
  /** A buyer with a received, unrefunded purchase and no review yet. */
  canReview: z.boolean(),
  /** The visitor's own review, wherever it falls in the pages. */
  ownReview: reviewSchema.nullable(),
  isSeller: z.boolean(),
  isAdmin: z.boolean(),
});
export type ReviewViewer = z.infer<typeof reviewViewerSchema>;

export const reviewListSchema = paged(reviewSchema).extend({ viewer: reviewViewerSchema });
export type ReviewList = z.infer<typeof reviewListSchema>;
