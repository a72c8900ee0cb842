import { and, count, desc, eq, gte, inArray, isNotNull, isNull, or, type SQL, sql } from "drizzle-orm";
import { DAY_MS } from "#domain/dates";
import { ANSWER_TIME_WINDOW_DAYS, answerTimeLabel } from "#domain/questions";
import type { Db, Transaction } from "#server/db/client";
import { onSale } from "#server/db/products";
import { user } from "#server/db/schema/auth";
import { products } from "#server/db/schema/catalog";
import { productQuestions, questionReports } from "#server/db/schema/questions";

export type QuestionRow = typeof productQuestions.$inferSelect;

/** A question with what its readers see beside it: the asker's first name, the product and its seller. */
export type QuestionRecord = QuestionRow & {
  askerFirstName: string;
  productName: string;
  sellerId: string | null;
  reportsCount: number;
};

const reportsCount = sql<number>`(select count(*)::int from ${questionReports} where ${questionReports.questionId} = ${productQuestions.id})`;

const recordColumns = {
  question: productQuestions,
  askerFirstName: user.firstName,
  productName: products.name,
  sellerId: products.sellerId,
  reportsCount,
};

function toRecord(row: {
  question: QuestionRow;
  askerFirstName: string;
  productName: string;
  sellerId: string | null;
  reportsCount: number;
}): QuestionRecord {
  return {
    ...row.question,
    askerFirstName: row.askerFirstName,
    productName: row.productName,
    sellerId: row.sellerId,
    reportsCount: Number(row.reportsCount),
  };
}

const records = (db: Db) =>
  db
    .select(recordColumns)
    .from(productQuestions)
    .innerJoin(user, eq(user.id, productQuestions.askerId))
    .innerJoin(products, eq(products.id, productQuestions.productId));

export type ProductFacts = { id: string; name: string; sellerId: string | null; onSale: boolean };

export async function findProduct(db: Db, productId: string): Promise<ProductFacts | null> {
  const [row] = await db
    .select({ id: products.id, name: products.name, sellerId: products.sellerId, onSale: onSale() })
    .from(products)
    .where(eq(products.id, productId));
  return row ?? null;
}

/**
 * Serialises one account's questions until the transaction ends, so the limit's count and the insert
 * that follows it cannot interleave with another request of the same account (check-then-insert).
 */
export async function lockAsker(tx: Transaction, askerId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`stackbay:questions:${askerId}`}))`);
}

/** How many questions the account asked since `since`: the per-account limit on asking. */
export async function askedSince(db: Db, askerId: string, since: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(productQuestions)
    .where(and(eq(productQuestions.askerId, askerId), gte(productQuestions.createdAt, since)));
  return row?.n ?? 0;
}

export async function insertQuestion(
  tx: Db,
  values: typeof productQuestions.$inferInsert,
): Promise<QuestionRow> {
  const [row] = await tx.insert(productQuestions).values(values).returning();
  if (!row) throw new Error("question was not inserted");
  return row;
}

export async function lockQuestion(tx: Transaction, id: string): Promise<QuestionRow | null> {
  const [row] = await tx.select().from(productQuestions).where(eq(productQuestions.id, id)).for("update");
  return row ?? null;
}

export async function updateQuestion(
  tx: Transaction,
  id: string,
  values: Partial<typeof productQuestions.$inferInsert>,
) {
  const [row] = await tx.update(productQuestions).set(values).where(eq(productQuestions.id, id)).returning();
  if (!row) throw new Error("question vanished inside its transaction");
  return row;
}

export async function findQuestionRecord(db: Db, id: string): Promise<QuestionRecord | null> {
  const [row] = await records(db).where(eq(productQuestions.id, id));
  return row ? toRecord(row) : null;
}

/** Who reads a product's questions decides which unanswered and hidden ones they see. */
export type Visibility = { readerId: string | null; isSeller: boolean; isAdmin: boolean };

function visibleTo(v: Visibility): SQL | undefined {
  if (v.isAdmin) return undefined;
  const published = eq(productQuestions.status, "published");
  const conditions: (SQL | undefined)[] = [and(published, isNotNull(productQuestions.answeredAt))];
  if (v.isSeller) conditions.push(published);
  if (v.readerId) conditions.push(eq(productQuestions.askerId, v.readerId));
  return or(...conditions);
}

/** One page of a product's questions the reader may see, newest first. */
export async function listQuestions(
  db: Db,
  productId: string,
  visibility: Visibility,
  options: { page: number; pageSize: number },
) {
  const where = and(eq(productQuestions.productId, productId), visibleTo(visibility));
  const rows = await records(db)
    .where(where)
    .orderBy(desc(productQuestions.createdAt), desc(productQuestions.id))
    .limit(options.pageSize)
    .offset((options.page - 1) * options.pageSize);
  const [total] = await db.select({ n: count() }).from(productQuestions).where(where);
  return { items: rows.map(toRecord), total: total?.n ?? 0 };
}

/** The published questions about a seller's products: unanswered first (oldest waiting longest first), then answered, newest first. */
export async function listSellerQuestions(
  db: Db,
  sellerId: string,
  options: { page: number; pageSize: number },
) {
  const where = and(eq(products.sellerId, sellerId), eq(productQuestions.status, "published"));
  const rows = await records(db)
    .where(where)
    .orderBy(
      sql`${productQuestions.answeredAt} is not null`,
      sql`case when ${productQuestions.answeredAt} is null then ${productQuestions.createdAt} end asc`,
      desc(productQuestions.createdAt),
      desc(productQuestions.id),
    )
    .limit(options.pageSize)
    .offset((options.page - 1) * options.pageSize);
  const [total] = await db
    .select({ n: count() })
    .from(productQuestions)
    .innerJoin(products, eq(products.id, productQuestions.productId))
    .where(where);
  const [waiting] = await db
    .select({ n: count() })
    .from(productQuestions)
    .innerJoin(products, eq(products.id, productQuestions.productId))
    .where(and(where, isNull(productQuestions.answeredAt)));
  return { items: rows.map(toRecord), total: total?.n ?? 0, unanswered: waiting?.n ?? 0 };
}

/** Which of `questionIds` the user has reported. */
export async function reportedBy(db: Db, userId: string, questionIds: string[]): Promise<Set<string>> {
  if (questionIds.length === 0) return new Set();
  const rows = await db
    .select({ id: questionReports.questionId })
    .from(questionReports)
    .where(and(eq(questionReports.userId, userId), inArray(questionReports.questionId, questionIds)));
  return new Set(rows.map((r) => r.id));
}

/** Records a report; false when this user had already reported the question. */
export async function insertReport(db: Db, questionId: string, userId: string, at: Date): Promise<boolean> {
  const rows = await db
    .insert(questionReports)
    .values({ questionId, userId, createdAt: at })
    .onConflictDoNothing()
    .returning({ id: questionReports.questionId });
  return rows.length > 0;
}

/** An account's address and first name, for the Q&A e-mails (never logged). */
export async function findContact(db: Db, userId: string) {
  const [row] = await db
    .select({ email: user.email, firstName: user.firstName })
    .from(user)
    .where(eq(user.id, userId));
  return row ?? null;
}

export type AnswerTime = {
  /** Questions about the seller's products the seller answered in the window. */
  answered: number;
  /** Median of answered_at − created_at over them, in milliseconds. */
  medianMs: number;
  /** `answerTimeLabel`: null with fewer than three answers. */
  label: string | null;
};

/**
 * Each seller's answer time: the median delay of their own answers to questions about their products,
 * over questions answered within the last ANSWER_TIME_WINDOW_DAYS before `now`. Sellers without any such
 * answer are absent from the map. One grouped query for any number of sellers (product pages, storefronts).
 */
export async function answerTimes(db: Db, sellerIds: string[], now: Date): Promise<Map<string, AnswerTime>> {
  const result = new Map<string, AnswerTime>();
  if (sellerIds.length === 0) return result;
  const since = new Date(now.getTime() - ANSWER_TIME_WINDOW_DAYS * DAY_MS);
  const rows = await db
    .select({
      sellerId: products.sellerId,
      answered: sql<number>`count(*)::int`,
      medianMs: sql<string>`percentile_cont(0.5) within group (order by extract(epoch from ${productQuestions.answeredAt} - ${productQuestions.createdAt}) * 1000)`,
    })
    .from(productQuestions)
    .innerJoin(products, eq(products.id, productQuestions.productId))
    .where(
      and(
        inArray(products.sellerId, sellerIds),
        eq(productQuestions.answeredBy, products.sellerId),
        isNotNull(productQuestions.answeredAt),
        gte(productQuestions.answeredAt, since),
      ),
    )
    .groupBy(products.sellerId);
  for (const row of rows) {
    if (!row.sellerId) continue;
    const stats = { answered: Number(row.answered), medianMs: Math.round(Number(row.medianMs)) };
    result.set(row.sellerId, { ...stats, label: answerTimeLabel(stats) });
  }
  return result;
}
