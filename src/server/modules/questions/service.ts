import type { FastifyInstance } from "fastify";
import { hasRole } from "#domain/accounts";
import {
  QUESTION_PAGE_SIZE,
  QUESTION_RATE_MAX,
  QUESTION_RATE_WINDOW_MS,
  type Question,
  type QuestionList,
  type SellerQuestionList,
} from "#domain/questions";
import { absoluteUrl, paths } from "#domain/routes";
import type { UserRow } from "#server/auth/guards";
import type { Database } from "#server/db/client";
import { publicUrl } from "#server/env";
import { AppError, Conflict, Forbidden, NotFound } from "#server/errors";
import type { JobQueue } from "#server/jobs/queue";
import { recordAudit } from "#server/lib/audit";
import type { Clock } from "#server/lib/clock";
import type { Mailer } from "#server/mail/mailer";
import { questionAnsweredMail, questionStatusMail } from "#server/mail/moderated-content-mail";
import { notify } from "#server/modules/notifications/service";
import {
  answerTimes,
  askedSince,
  findContact,
  findProduct,
  findQuestionRecord,
  insertQuestion,
  insertReport,
  listQuestions,
  listSellerQuestions,
  lockAsker,
  lockQuestion,
  type QuestionRecord,
  reportedBy,
  updateQuestion,
} from "#server/modules/questions/repository";
import { emitSellerEvent } from "#server/modules/seller-webhooks/events";

/** What questions need from the app; `questionDepsOf(app)` builds it. */
export type QuestionDeps = { db: Database; clock: Clock; jobs: JobQueue; mailer: Mailer; baseUrl: string };

export function questionDepsOf(app: FastifyInstance): QuestionDeps {
  return {
    db: app.database.db,
    clock: app.clock,
    jobs: app.jobs,
    mailer: app.mailer,
    baseUrl: publicUrl(app.env),
  };
}

/** Who is reading a question: shapes what it carries (reasons and report counts, who may answer). */
type Reader = { id: string; isAdmin: boolean } | null;

/** Whether the reader may answer the question now, or edit the answer they wrote. */
function mayAnswer(row: QuestionRecord, reader: Reader): boolean {
  if (!reader || row.status !== "published") return false;
  if (row.answeredAt === null) return reader.isAdmin || row.sellerId === reader.id;
  return row.answeredBy === reader.id;
}

export function toQuestion(row: QuestionRecord, reader: Reader, reportedByMe = false): Question {
  const mine = reader?.id === row.askerId;
  return {
    id: row.id,
    productId: row.productId,
    text: row.text,
    askerFirstName: row.askerFirstName || "A buyer",
    createdAt: row.createdAt.toISOString(),
    answer:
      row.answer !== null && row.answeredAt !== null
        ? {
            text: row.answer,
            answeredAt: row.answeredAt.toISOString(),
            // An answer whose writer is not (or no longer) the product's seller came from the team.
            by: row.answeredBy !== null && row.answeredBy === row.sellerId ? "seller" : "admin",
          }
        : null,
    status: row.status as Question["status"],
    hiddenReason: mine || reader?.isAdmin ? row.hiddenReason : null,
    isMine: mine,
    canAnswer: mayAnswer(row, reader),
    reportedByMe,
    reportsCount: reader?.isAdmin ? row.reportsCount : null,
  };
}

const readerOf = (me: UserRow): Reader => ({ id: me.id, isAdmin: hasRole(me, "admin") });

async function loaded(deps: QuestionDeps, id: string, reader: Reader): Promise<Question> {
  const record = await findQuestionRecord(deps.db, id);
  if (!record) throw new NotFound("Question not found.", "QUESTION_NOT_FOUND");
  return toQuestion(record, reader);
}

/** A public product, or 404 as if it did not exist (inactive and unapproved listings included). */
async function publicProduct(deps: QuestionDeps, productId: string) {
  const product = await findProduct(deps.db, productId);
  if (!product?.onSale) throw new NotFound("Product not found.", "PRODUCT_NOT_FOUND");
  return product;
}

/**
 * A signed-in visitor asks about a public product that is not theirs, within the per-account limit;
 * the product's seller is notified (and e-mailed, in the same transaction) with a link to their Questions.
 */
export async function askQuestion(deps: QuestionDeps, me: UserRow, productId: string, text: string) {
  const product = await publicProduct(deps, productId);
  if (product.sellerId === me.id)
    throw new AppError(403, "OWN_PRODUCT", "You can't ask a question about a product you sell.");
  const now = deps.clock.now();
  const id = await deps.db.transaction(async (tx) => {
    // Counted under the account's lock, in the insert's transaction: parallel requests queue here.
    await lockAsker(tx, me.id);
    const recent = await askedSince(tx, me.id, new Date(now.getTime() - QUESTION_RATE_WINDOW_MS));
    if (recent >= QUESTION_RATE_MAX)
      throw new AppError(
        429,
        "QUESTION_LIMIT",
        `You can ask up to ${QUESTION_RATE_MAX} questions an hour. Please try again later.`,
      );
    const row = await insertQuestion(tx, { productId, askerId: me.id, text, createdAt: now });
    if (product.sellerId)
      await notify(
        deps.jobs,
        tx,
        product.sellerId,
        {
          kind: "question_asked",
          title: `A buyer asked about ${product.name}`,
          body: [
            `Someone has asked a question about ${product.name}. It shows on the product page once you answer it.`,
            `Question: ${text}`,
          ],
          link: paths.dashboard("questions"),
          action: "Answer it",
        },
        now,
      );
    if (product.sellerId)
      await emitSellerEvent(tx, {
        sellerId: product.sellerId,
        type: "question.asked",
        at: now,
        data: {
          questionId: row.id,
          productId,
          productName: product.name,
          text,
          askedAt: now.toISOString(),
        },
      });
    return row.id;
  });
  return loaded(deps, id, readerOf(me));
}

/**
 * The product's seller or an admin answers an unanswered question, once; afterwards only whoever
 * answered may change the text. The first answer e-mails the asker a link to the product page.
 */
export async function answerQuestion(deps: QuestionDeps, me: UserRow, id: string, text: string) {
  const reader = readerOf(me);
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const current = await lockQuestion(tx, id);
    if (current?.status !== "published") throw new NotFound("Question not found.", "QUESTION_NOT_FOUND");
    const product = await findProduct(tx, current.productId);
    if (!product) throw new NotFound("Question not found.", "QUESTION_NOT_FOUND");
    const isSeller = product.sellerId === me.id;
    if (!isSeller && !reader?.isAdmin)
      throw new Forbidden("Only the product's seller can answer its questions.");
    if (current.answeredAt !== null) {
      if (current.answeredBy !== me.id)
        throw new Conflict("This question has already been answered.", "ALREADY_ANSWERED");
      await updateQuestion(tx, id, { answer: text });
      return;
    }
    await updateQuestion(tx, id, { answer: text, answeredBy: me.id, answeredAt: now });
    const asker = await findContact(tx, current.askerId);
    if (asker)
      await deps.mailer.send(
        {
          to: asker.email,
          ...questionAnsweredMail({
            firstName: asker.firstName,
            productName: product.name,
            answer: text,
            link: { label: "View the product", url: absoluteUrl(deps.baseUrl, paths.product(product.id)) },
          }),
        },
        { tx },
      );
  });
  return loaded(deps, id, reader);
}

export async function reportQuestion(deps: QuestionDeps, me: UserRow, id: string) {
  const record = await findQuestionRecord(deps.db, id);
  if (record?.status !== "published") throw new NotFound("Question not found.", "QUESTION_NOT_FOUND");
  if (!(await insertReport(deps.db, id, me.id, deps.clock.now())))
    throw new Conflict("You have already reported this question.", "ALREADY_REPORTED");
}

/** An admin hides or restores a question with a reason: audited, and the asker is e-mailed. */
export async function moderateQuestion(
  deps: QuestionDeps,
  admin: UserRow,
  id: string,
  to: "hidden" | "published",
  reason: string,
) {
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const current = await lockQuestion(tx, id);
    if (!current) throw new NotFound("Question not found.", "QUESTION_NOT_FOUND");
    if (current.status === to)
      throw new Conflict(
        to === "hidden" ? "This question is already hidden." : "This question is already published.",
        "QUESTION_UNCHANGED",
      );
    await updateQuestion(tx, id, {
      status: to,
      hiddenReason: reason,
      moderatedBy: admin.id,
      moderatedAt: now,
    });
    const product = await findProduct(tx, current.productId);
    await recordAudit(
      tx,
      { id: admin.id, email: admin.email },
      {
        action: to === "hidden" ? "update" : "restore",
        entityType: "question",
        entityId: id,
        entityLabel: product ? `Question about ${product.name}` : "Question",
        before: { status: current.status, reason: current.hiddenReason },
        after: { status: to, reason },
      },
    );
    const asker = await findContact(tx, current.askerId);
    if (asker && product) {
      const link = { label: "View the product", url: absoluteUrl(deps.baseUrl, paths.product(product.id)) };
      const mail = questionStatusMail({
        firstName: asker.firstName,
        productName: product.name,
        to,
        reason,
        link,
      });
      await deps.mailer.send({ to: asker.email, ...mail }, { tx });
    }
  });
  return loaded(deps, id, readerOf(admin));
}

/**
 * One page of a public product's questions for whoever reads it: answered, published ones for everyone;
 * the asker's own, the seller's unanswered and, for admins, hidden ones too; and the seller's answer time.
 */
export async function questionsOfProduct(
  deps: QuestionDeps,
  me: UserRow | null,
  productId: string,
  page: number,
) {
  const product = await publicProduct(deps, productId);
  const reader = me ? readerOf(me) : null;
  const isSeller = me !== null && product.sellerId === me.id;
  const isAdmin = reader?.isAdmin ?? false;
  const { items, total } = await listQuestions(
    deps.db,
    productId,
    { readerId: me?.id ?? null, isSeller, isAdmin },
    { page, pageSize: QUESTION_PAGE_SIZE },
  );
  const reported = me
    ? await reportedBy(
        deps.db,
        me.id,
        items.map((q) => q.id),
      )
    : new Set<string>();
  const times = product.sellerId
    ? await answerTimes(deps.db, [product.sellerId], deps.clock.now())
    : new Map<string, never>();
  return {
    items: items.map((q) => toQuestion(q, reader, reported.has(q.id))),
    total,
    page,
    pageSize: QUESTION_PAGE_SIZE,
    viewer: { signedIn: me !== null, canAsk: me !== null && !isSeller, isSeller, isAdmin },
    answerTime: (product.sellerId && times.get(product.sellerId)?.label) || null,
  } satisfies QuestionList;
}

/** The seller's dashboard: questions about their products, unanswered first. */
export async function sellerQuestions(deps: QuestionDeps, me: UserRow, page: number) {
  const reader = readerOf(me);
  const { items, total, unanswered } = await listSellerQuestions(deps.db, me.id, {
    page,
    pageSize: QUESTION_PAGE_SIZE,
  });
  return {
    items: items.map((q) => ({ ...toQuestion(q, reader), productName: q.productName })),
    total,
    page,
    pageSize: QUESTION_PAGE_SIZE,
    unanswered,
  } satisfies SellerQuestionList;
}
