import { and, count, desc, eq, inArray, not, sql } from "drizzle-orm";
import type { RatingSummary } from "#domain/reviews";
import type { Db, Transaction } from "#server/db/client";
import { licenses } from "#server/db/schema/after-sale";
import { user } from "#server/db/schema/auth";
import { products } from "#server/db/schema/catalog";
import { orderItems, orders } from "#server/db/schema/orders";
import { licenseValidationDays, reviewReports, reviews } from "#server/db/schema/reviews";

export type ReviewRow = typeof reviews.$inferSelect;

/** A review with what every reader sees beside it: the author's first name and the active-use days. */
export type ReviewRecord = ReviewRow & {
  authorFirstName: string;
  activeUseDays: number;
  reportsCount: number;
  refunded: boolean;
};

// Distinct UTC days on which any of the author's licenses for the product passed the license API.
const activeUseDays = sql<number>`(
  select count(distinct ${licenseValidationDays.day})::int
  from ${licenseValidationDays}
  join ${licenses} on ${licenses.id} = ${licenseValidationDays.licenseId}
  where ${licenses.userId} = ${reviews.userId} and ${licenses.productId} = ${reviews.productId}
)`;
const reportsCount = sql<number>`(select count(*)::int from ${reviewReports} where ${reviewReports.reviewId} = ${reviews.id})`;
/**
 * Whether the purchase the review cites was refunded (decision 0012): the review stays visible, marked,
 * but no longer counts toward the rating or the sort and can no longer be edited.
 */
const citesRefund = sql<boolean>`exists (
  select 1 from ${orderItems}
  where ${orderItems.id} = ${reviews.orderItemId} and ${orderItems.refundStatus} = 'refunded'
)`;

const recordColumns = {
  review: reviews,
  authorFirstName: user.firstName,
  activeUseDays,
  reportsCount,
  refunded: citesRefund,
};

function toRecord(row: {
  review: ReviewRow;
  authorFirstName: string;
  activeUseDays: number;
  reportsCount: number;
  refunded: boolean;
}) {
  return {
    ...row.review,
    authorFirstName: row.authorFirstName,
    activeUseDays: Number(row.activeUseDays),
    reportsCount: Number(row.reportsCount),
    refunded: row.refunded === true,
  };
}

export type ProductFacts = { id: string; name: string; sellerId: string | null; isActive: boolean };

export async function findProduct(db: Db, productId: string): Promise<ProductFacts | null> {
  const [row] = await db
    .select({
      id: products.id,
      name: products.name,
      sellerId: products.sellerId,
      isActive: products.isActive,
    })
    .from(products)
    .where(eq(products.id, productId));
  return row ?? null;
}

/** Locks the product row, so reviews of one product change its figures one at a time. */
export async function lockProduct(tx: Transaction, productId: string): Promise<void> {
  await tx.select({ id: products.id }).from(products).where(eq(products.id, productId)).for("no key update");
}

/**
 * The buyer's bought items of a product that are not refunded, each with its order's payment status
 * and category, newest first: the eligibility rule decides which of them counts.
 */
export async function purchasesOf(db: Db, userId: string, productId: string) {
  return db
    .select({
      orderItemId: orderItems.id,
      shippingState: orderItems.shippingState,
      paymentStatus: orders.paymentStatus,
    })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .where(
      and(
        eq(orders.userId, userId),
        eq(orderItems.productId, productId),
        eq(orderItems.refundStatus, "none"),
      ),
    )
    .orderBy(desc(orders.createdAt));
}

export async function insertReview(tx: Transaction, values: typeof reviews.$inferInsert): Promise<ReviewRow> {
  const [row] = await tx.insert(reviews).values(values).onConflictDoNothing().returning();
  if (!row) throw new Error("review already exists");
  return row;
}

export async function findReviewOf(db: Db, userId: string, productId: string): Promise<ReviewRow | null> {
  const [row] = await db
    .select()
    .from(reviews)
    .where(and(eq(reviews.userId, userId), eq(reviews.productId, productId)));
  return row ?? null;
}

export async function lockReview(tx: Transaction, id: string): Promise<ReviewRow | null> {
  const [row] = await tx.select().from(reviews).where(eq(reviews.id, id)).for("update");
  return row ?? null;
}

export async function updateReview(
  tx: Transaction,
  id: string,
  values: Partial<typeof reviews.$inferInsert>,
) {
  const [row] = await tx.update(reviews).set(values).where(eq(reviews.id, id)).returning();
  if (!row) throw new Error("review vanished inside its transaction");
  return row;
}

/** The reviews that cite an order item, locked: a refund of the item withdraws them. */
export async function lockReviewsCiting(tx: Transaction, orderItemId: string): Promise<ReviewRow[]> {
  return tx.select().from(reviews).where(eq(reviews.orderItemId, orderItemId)).for("update");
}

export async function findReviewRecord(db: Db, id: string): Promise<ReviewRecord | null> {
  const [row] = await db
    .select(recordColumns)
    .from(reviews)
    .innerJoin(user, eq(user.id, reviews.userId))
    .where(eq(reviews.id, id));
  return row ? toRecord(row) : null;
}

/** One page of a product's reviews, newest first; hidden ones only when `withHidden`. */
export async function listReviews(
  db: Db,
  productId: string,
  options: { withHidden: boolean; page: number; pageSize: number },
) {
  const where = options.withHidden
    ? eq(reviews.productId, productId)
    : and(eq(reviews.productId, productId), eq(reviews.status, "published"));
  const rows = await db
    .select(recordColumns)
    .from(reviews)
    .innerJoin(user, eq(user.id, reviews.userId))
    .where(where)
    .orderBy(desc(reviews.createdAt), desc(reviews.id))
    .limit(options.pageSize)
    .offset((options.page - 1) * options.pageSize);
  const [total] = await db.select({ n: count() }).from(reviews).where(where);
  return { items: rows.map(toRecord), total: total?.n ?? 0 };
}

/** Which of `reviewIds` the user has reported. */
export async function reportedBy(db: Db, userId: string, reviewIds: string[]): Promise<Set<string>> {
  if (reviewIds.length === 0) return new Set();
  const rows = await db
    .select({ id: reviewReports.reviewId })
    .from(reviewReports)
    .where(and(eq(reviewReports.userId, userId), inArray(reviewReports.reviewId, reviewIds)));
  return new Set(rows.map((r) => r.id));
}

/** Records a report; false when this user had already reported the review. */
export async function insertReport(db: Db, reviewId: string, userId: string, at: Date): Promise<boolean> {
  const rows = await db
    .insert(reviewReports)
    .values({ reviewId, userId, createdAt: at })
    .onConflictDoNothing()
    .returning({ id: reviewReports.reviewId });
  return rows.length > 0;
}

/** Count and star sum of a product's counted reviews: published, and citing a purchase not refunded. */
export async function publishedStars(tx: Db, productId: string): Promise<{ count: number; sum: number }> {
  const [row] = await tx
    .select({ count: sql<number>`count(*)::int`, sum: sql<number>`coalesce(sum(${reviews.rating}), 0)::int` })
    .from(reviews)
    .where(and(eq(reviews.productId, productId), eq(reviews.status, "published"), not(citesRefund)));
  return { count: Number(row?.count ?? 0), sum: Number(row?.sum ?? 0) };
}

export async function writeProductRating(tx: Db, productId: string, summary: RatingSummary): Promise<void> {
  await tx
    .update(products)
    .set({ rating: summary.rating, reviewsCount: summary.reviewsCount, ratingScore: summary.score })
    .where(eq(products.id, productId));
}

/** The author's address and first name, for the moderation e-mail (never logged). */
export async function findAuthor(db: Db, userId: string) {
  const [row] = await db
    .select({ email: user.email, firstName: user.firstName })
    .from(user)
    .where(eq(user.id, userId));
  return row ?? null;
}
