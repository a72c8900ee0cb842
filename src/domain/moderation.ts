import { z } from "zod";
import { FEATURED_COUNT } from "#domain/catalog";
import { productCardSchema } from "#domain/catalog-schemas";
import { toUnits } from "#domain/money";
import { paged, pageNumber } from "#domain/paging";

/** Listing moderation (decision 0013): only an approved product is public. */
export const moderationStatuses = ["pending", "approved", "rejected"] as const;
export const moderationStatusSchema = z.enum(moderationStatuses);
export type ModerationStatus = (typeof moderationStatuses)[number];

export const MODERATION_PAGE_SIZE = 20;
export const REJECT_REASON_MIN = 10;
export const REJECT_REASON_MAX = 1000;

/** What a seller reads beside each of their products. */
export function moderationLabel(status: ModerationStatus, reason: string | null): string {
  if (status === "pending") return "Pending review";
  if (status === "approved") return "Approved";
  return reason ? `Rejected: ${reason}` : "Rejected";
}

/**
 * The fields a buyer reads as the listing's claims: changing any of them on an approved product
 * sends it back to review. Activity, resale and commission are commercial settings the seller changes
 * routinely and that say nothing new about what is sold; price and discount changes need review only
 * when they make the deal look bigger (`isBiggerDeal`, decision 0013).
 */
export const MATERIAL_FIELDS = [
  "name",
  "vendor",
  "description",
  "category",
  "images",
  "imageUrl",
  "features",
  "specifications",
] as const;
type MaterialField = (typeof MATERIAL_FIELDS)[number];

export function isMaterialEdit(
  before: Partial<Record<MaterialField, unknown>>,
  after: Partial<Record<MaterialField, unknown>>,
): boolean {
  return MATERIAL_FIELDS.some(
    (field) => JSON.stringify(before[field] ?? null) !== JSON.stringify(after[field] ?? null),
  );
}

/**
 * An approved price may move by up to this share of itself without review, either way: a seller's sale
 * or price rise, but not an approved $1,000 licence turned into a $1 lure, or a $1 listing into $999.
 */
export const PRICE_MOVE_WITHOUT_REVIEW = 0.5;

type DealFields = {
  price: number;
  originalPrice: number | null;
  discountLabel: string | null;
  discountPercentage: number | null;
};

/**
 * Whether an edit makes the listing look like a bigger deal than the one approved (issue 29): a new or
 * changed discount label (free text a buyer reads as a claim, "OFFICIAL PARTNER"), a higher original
 * price ("was $99,999"), a higher discount percentage, or a price move beyond `PRICE_MOVE_WITHOUT_REVIEW`.
 * Lowering the original price or the percentage, or removing the label, makes no claim bigger.
 */
export function isBiggerDeal(before: DealFields, after: DealFields): boolean {
  if (after.discountLabel !== null && after.discountLabel !== before.discountLabel) return true;
  const raised = (from: number | null, to: number | null) => to !== null && (from === null || to > from);
  if (raised(before.originalPrice, after.originalPrice)) return true;
  if (raised(before.discountPercentage, after.discountPercentage)) return true;
  const from = toUnits(before.price);
  return Math.abs(toUnits(after.price) - from) > from * PRICE_MOVE_WITHOUT_REVIEW;
}

/** An edit that sends an approved listing of an untrusted seller back to review (decision 0013). */
export function needsReview(
  before: Partial<Record<MaterialField, unknown>> & DealFields,
  after: Partial<Record<MaterialField, unknown>> & DealFields,
): boolean {
  return isMaterialEdit(before, after) || isBiggerDeal(before, after);
}

/** Who wrote the listing, as far as moderation cares. */
export type ListingAuthor = { isAdmin: boolean; isTrustedSeller: boolean };

/** A new listing: an admin's or a trusted seller's is public at once, anyone else's waits for review. */
export function statusOfNewListing(author: ListingAuthor): ModerationStatus {
  return author.isAdmin || author.isTrustedSeller ? "approved" : "pending";
}

/**
 * The state after an edit. An admin editing keeps the state (approving is a decision of its own, in
 * the queue); a trusted seller's edit is approved; an untrusted seller's edit of a pending or rejected
 * listing is a (re)submission, and of an approved one goes back to review only when it is material.
 */
export function statusAfterEdit(
  current: ModerationStatus,
  author: ListingAuthor,
  material: boolean,
): ModerationStatus {
  if (author.isAdmin) return current;
  if (author.isTrustedSeller) return "approved";
  if (current === "approved" && !material) return "approved";
  return "pending";
}

export const rejectListingSchema = z.object({
  reason: z
    .string({ error: "Please give a reason" })
    .trim()
    .min(
      REJECT_REASON_MIN,
      `The reason must be at least ${REJECT_REASON_MIN} characters, so the seller can fix it`,
    )
    .max(REJECT_REASON_MAX, `The reason must be at most ${REJECT_REASON_MAX} characters`),
});
export type RejectListingInput = z.input<typeof rejectListingSchema>;

export const moderationQueueQuery = z.object({ page: pageNumber });

export const moderationQueueItemSchema = z.object({
  id: z.string(),
  name: z.string(),
  vendor: z.string().nullable(),
  description: z.string().nullable(),
  category: z.string(),
  categoryName: z.string().nullable(),
  price: z.number(),
  imageUrl: z.string().nullable(),
  sellerId: z.string().nullable(),
  sellerName: z.string().nullable(),
  /** When the listing was last submitted (its last edit). */
  submittedAt: z.string(),
});
export type ModerationQueueItem = z.infer<typeof moderationQueueItemSchema>;
export const moderationQueueSchema = paged(moderationQueueItemSchema);
export type ModerationQueue = z.infer<typeof moderationQueueSchema>;

export const moderationDecisionSchema = z.object({
  id: z.string(),
  moderationStatus: moderationStatusSchema,
  moderationReason: z.string().nullable(),
  moderatedAt: z.string().nullable(),
});
export type ModerationDecision = z.infer<typeof moderationDecisionSchema>;

export const trustedSellerSchema = z.object({
  trusted: z.boolean({ error: "Trusted must be true or false" }),
});
export const trustedSellerAnswerSchema = z.object({ id: z.string(), isTrustedSeller: z.boolean() });
export type TrustedSellerAnswer = z.infer<typeof trustedSellerAnswerSchema>;

/** The home page shows at most this many, chosen or not. */
export const MAX_FEATURED = FEATURED_COUNT;

export const featuredSelectionSchema = z.object({
  productIds: z
    .array(z.uuid("Unknown product"), { error: "Products must be a list" })
    .max(MAX_FEATURED, `At most ${MAX_FEATURED} products can be featured`)
    .refine((ids) => new Set(ids).size === ids.length, "Each product can be featured only once"),
});
export type FeaturedSelection = z.infer<typeof featuredSelectionSchema>;

/** `GET /api/featured-products`: the home page's products in order. */
export const featuredHomeSchema = z.object({ items: z.array(productCardSchema) });
export type FeaturedHome = z.infer<typeof featuredHomeSchema>;

export const featuredAdminItemSchema = z.object({
  id: z.string(),
  name: z.string(),
  vendor: z.string().nullable(),
  imageUrl: z.string().nullable(),
  price: z.number(),
  /** False once the product was deactivated or sent back to review: it is then left off the home page. */
  shown: z.boolean(),
});
export type FeaturedAdminItem = z.infer<typeof featuredAdminItemSchema>;
export const featuredAdminListSchema = z.object({ items: z.array(featuredAdminItemSchema) });
export type FeaturedAdminList = z.infer<typeof featuredAdminListSchema>;
