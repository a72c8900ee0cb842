import type { FastifyInstance } from "fastify";
import { hasRole } from "#domain/accounts";
import {
  ACTIVE_USE_DAYS,
  canEditReview,
  editableUntil,
  isReceived,
  REVIEW_PAGE_SIZE,
  type Review,
  type ReviewInput,
  type ReviewList,
  summariseRatings,
} from "#domain/reviews";
import { absoluteUrl, paths } from "#domain/routes";
import type { UserRow } from "#server/auth/guards";
import type { Database, Db, Transaction } from "#server/db/client";
import { publicUrl } from "#server/env";
import { AppError, Conflict, Forbidden, NotFound } from "#server/errors";
import { recordAudit } from "#server/lib/audit";
import type { Clock } from "#server/lib/clock";
import type { Mailer } from "#server/mail/mailer";
import { reviewStatusMail } from "#server/mail/moderated-content-mail";
import {
  findAuthor,
  findProduct,
  findReviewOf,
  findReviewRecord,
  insertReport,
  insertReview,
  listReviews,
  lockProduct,
  lockReview,
  lockReviewsCiting,
  type ProductFacts,
  publishedStars,
  purchasesOf,
  type ReviewRecord,
  type ReviewRow,
  reportedBy,
  updateReview,
  writeProductRating,
} from "#server/modules/reviews/repository";
import { emitSellerEvent } from "#server/modules/seller-webhooks/events";

/** What reviews need from the app; `reviewDepsOf(app)` builds it. */
export type ReviewDeps = { db: Database; clock: Clock; mailer: Mailer; baseUrl: string };

export function reviewDepsOf(app: FastifyInstance): ReviewDeps {
  return { db: app.database.db, clock: app.clock, mailer: app.mailer, baseUrl: publicUrl(app.env) };
}

/** Who is reading: shapes what a review answer carries (reasons and report counts for admins). */
export type Reader = { id: string; isAdmin: boolean } | null;

const PAID = new Set(["mock_confirmed", "partially_refunded"]);

/**
 * The one eligibility rule: the buyer's order item of this product that makes a review a verified
 * purchase, or null. The order must be paid, the item not refunded and received (digital goods at
 * payment; physical goods once delivered, which `isReceived` decides from the shipping state).
 */
export async function eligiblePurchase(db: Db, userId: string, productId: string) {
  const items = await purchasesOf(db, userId, productId);
  const item = items.find((i) =>
    isReceived({ orderPaid: PAID.has(i.paymentStatus), shippingState: i.shippingState }),
  );
  return item?.orderItemId ?? null;
}

export function toReview(row: ReviewRecord, reader: Reader, reportedByMe = false): Review {
  const mine = reader?.id === row.userId;
  const privileged = mine || reader?.isAdmin === true;
  return {
    id: row.id,
    productId: row.productId,
    rating: row.rating,
    title: row.title,
    body: row.body,
    authorFirstName: row.authorFirstName || "A buyer",
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    verifiedPurchase: !row.refunded,
    refunded: row.refunded,
    // A refund revokes the licenses the badge was earned with: it goes with the purchase.
    verifiedActiveUse: !row.refunded && row.activeUseDays >= ACTIVE_USE_DAYS,
    sellerReply:
      row.sellerReply && row.sellerReplyAt
        ? { text: row.sellerReply, createdAt: row.sellerReplyAt.toISOString() }
        : null,
    status: row.status as Review["status"],
    hiddenReason: privileged ? row.hiddenReason : null,
    isMine: mine,
    editableUntil: mine && !row.refunded ? editableUntil(row.createdAt).toISOString() : null,
    reportedByMe,
    reportsCount: reader?.isAdmin ? row.reportsCount : null,
  };
}

/** Recomputes the product's rating, count and sort score from its published reviews, in `tx`. */
async function refreshRating(tx: Transaction, productId: string) {
  const { count, sum } = await publishedStars(tx, productId);
  await writeProductRating(tx, productId, summariseRatings(count, sum));
}

async function reviewable(deps: ReviewDeps, productId: string): Promise<ProductFacts> {
  const product = await findProduct(deps.db, productId);
  if (!product?.isActive) throw new NotFound("Product not found.", "PRODUCT_NOT_FOUND");
  return product;
}

async function loaded(deps: ReviewDeps, id: string, reader: Reader): Promise<Review> {
  const record = await findReviewRecord(deps.db, id);
  if (!record) throw new NotFound("Review not found.", "REVIEW_NOT_FOUND");
  return toReview(record, reader);
}

export async function createReview(deps: ReviewDeps, me: UserRow, productId: string, input: ReviewInput) {
  const product = await reviewable(deps, productId);
  if (product.sellerId === me.id)
    throw new AppError(403, "OWN_PRODUCT", "You can't review a product you sell.");
  const now = deps.clock.now();
  const id = await deps.db.transaction(async (tx) => {
    await lockProduct(tx, productId);
    if (await findReviewOf(tx, me.id, productId))
      throw new Conflict(
        "You have already reviewed this product. You can edit your review.",
        "ALREADY_REVIEWED",
      );
    const orderItemId = await eligiblePurchase(tx, me.id, productId);
    if (!orderItemId)
      throw new AppError(
        403,
        "NOT_ELIGIBLE",
        "Only buyers who paid for and received this product can review it.",
      );
    const row = await insertReview(tx, {
      productId,
      userId: me.id,
      orderItemId,
      ...input,
      createdAt: now,
      updatedAt: now,
    });
    await refreshRating(tx, productId);
    if (product.sellerId)
      await emitSellerEvent(tx, {
        sellerId: product.sellerId,
        type: "review.posted",
        at: now,
        data: {
          reviewId: row.id,
          productId,
          productName: product.name,
          rating: input.rating,
          title: input.title,
          body: input.body,
          postedAt: now.toISOString(),
        },
      });
    return row.id;
  });
  return loaded(deps, id, { id: me.id, isAdmin: false });
}

/** The author's own review, locked, or 404 (someone else's review answers as if it did not exist). */
async function ownReview(tx: Transaction, me: UserRow, id: string): Promise<ReviewRow> {
  const row = await lockReview(tx, id);
  if (!row || row.userId !== me.id) throw new NotFound("Review not found.", "REVIEW_NOT_FOUND");
  return row;
}

export async function editReview(deps: ReviewDeps, me: UserRow, id: string, input: ReviewInput) {
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const current = await ownReview(tx, me, id);
    if (!canEditReview(current.createdAt, now))
      throw new AppError(
        403,
        "EDIT_WINDOW_CLOSED",
        "Reviews can be edited for 30 days after they are written.",
      );
    await lockProduct(tx, current.productId);
    // Eligibility holds on every edit, not only when writing: a refunded purchase ends editing.
    const orderItemId = await eligiblePurchase(tx, me.id, current.productId);
    if (!orderItemId)
      throw new AppError(
        403,
        "PURCHASE_REFUNDED",
        "Your purchase of this product was refunded, so your review can no longer be edited.",
      );
    await updateReview(tx, id, { ...input, orderItemId, updatedAt: now });
    await refreshRating(tx, current.productId);
  });
  return loaded(deps, id, { id: me.id, isAdmin: false });
}

/**
 * A refund of an order item was approved (called in its transaction): a review citing the item cites
 * the author's other received purchase of the product if there is one, otherwise it stays marked
 * refunded and leaves the product's rating and sort (decision 0012); the figures are recomputed.
 */
export async function withdrawReviewsOfRefundedItem(tx: Transaction, orderItemId: string) {
  for (const review of await lockReviewsCiting(tx, orderItemId)) {
    await lockProduct(tx, review.productId);
    const other = await eligiblePurchase(tx, review.userId, review.productId);
    if (other) await updateReview(tx, review.id, { orderItemId: other });
    await refreshRating(tx, review.productId);
  }
}

export async function replyToReview(deps: ReviewDeps, me: UserRow, id: string, text: string) {
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const current = await lockReview(tx, id);
    if (current?.status !== "published") throw new NotFound("Review not found.", "REVIEW_NOT_FOUND");
    const product = await findProduct(tx, current.productId);
    if (!product || product.sellerId !== me.id)
      throw new Forbidden("Only the product's seller can reply to its reviews.");
    if (current.sellerReply !== null)
      throw new Conflict("You have already replied to this review.", "ALREADY_REPLIED");
    await updateReview(tx, id, { sellerReply: text, sellerReplyAt: now });
  });
  return loaded(deps, id, { id: me.id, isAdmin: false });
}

export async function reportReview(deps: ReviewDeps, me: UserRow, id: string) {
  const record = await findReviewRecord(deps.db, id);
  if (record?.status !== "published") throw new NotFound("Review not found.", "REVIEW_NOT_FOUND");
  if (!(await insertReport(deps.db, id, me.id, deps.clock.now())))
    throw new Conflict("You have already reported this review.", "ALREADY_REPORTED");
}

/**
 * An admin hides or restores a review: the product's figures follow in the same transaction, the
 * change is audited with its reason, and the author is e-mailed once it commits.
 */
export async function moderateReview(
  deps: ReviewDeps,
  admin: UserRow,
  id: string,
  to: "hidden" | "published",
  reason: string,
) {
  await deps.db.transaction(async (tx) => {
    const current = await lockReview(tx, id);
    if (!current) throw new NotFound("Review not found.", "REVIEW_NOT_FOUND");
    if (current.status === to)
      throw new Conflict(
        to === "hidden" ? "This review is already hidden." : "This review is already published.",
        "REVIEW_UNCHANGED",
      );
    await lockProduct(tx, current.productId);
    await updateReview(tx, id, { status: to, hiddenReason: reason });
    await refreshRating(tx, current.productId);
    const product = await findProduct(tx, current.productId);
    await recordAudit(
      tx,
      { id: admin.id, email: admin.email },
      {
        action: to === "hidden" ? "update" : "restore",
        entityType: "review",
        entityId: id,
        entityLabel: product ? `Review of ${product.name}` : "Review",
        before: { status: current.status, reason: current.hiddenReason },
        after: { status: to, reason },
      },
    );
    const author = await findAuthor(tx, current.userId);
    if (author && product) {
      const link = { label: "View the product", url: absoluteUrl(deps.baseUrl, paths.product(product.id)) };
      const mail = reviewStatusMail({
        firstName: author.firstName,
        productName: product.name,
        to,
        reason,
        link,
      });
      await deps.mailer.send({ to: author.email, ...mail }, { tx });
    }
  });
  return loaded(deps, id, { id: admin.id, isAdmin: true });
}

/**
 * One page of a product's reviews for whoever reads it, and what they may do: hidden reviews reach
 * admins (all) and their author (their own, as `ownReview`).
 */
export async function reviewsOfProduct(
  deps: ReviewDeps,
  me: UserRow | null,
  productId: string,
  page: number,
) {
  const product = await reviewable(deps, productId);
  const isAdmin = me ? hasRole(me, "admin") : false;
  const reader: Reader = me ? { id: me.id, isAdmin } : null;
  const { items, total } = await listReviews(deps.db, productId, {
    withHidden: isAdmin,
    page,
    pageSize: REVIEW_PAGE_SIZE,
  });
  const reported = me
    ? await reportedBy(
        deps.db,
        me.id,
        items.map((r) => r.id),
      )
    : new Set<string>();
  const own = me ? await findReviewOf(deps.db, me.id, productId) : null;
  const ownRecord = own ? await findReviewRecord(deps.db, own.id) : null;
  const canReview =
    me !== null &&
    !own &&
    product.sellerId !== me.id &&
    (await eligiblePurchase(deps.db, me.id, productId)) !== null;
  return {
    items: items.map((r) => toReview(r, reader, reported.has(r.id))),
    total,
    page,
    pageSize: REVIEW_PAGE_SIZE,
    viewer: {
      signedIn: me !== null,
      canReview,
      ownReview: ownRecord ? toReview(ownRecord, reader) : null,
      isSeller: me !== null && product.sellerId === me.id,
      isAdmin,
    },
  } satisfies ReviewList;
}
