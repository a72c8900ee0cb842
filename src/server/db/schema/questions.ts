import { sql } from "drizzle-orm";
import { check, index, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { user } from "#server/db/schema/auth";
import { products } from "#server/db/schema/catalog";

/**
 * A signed-in visitor's question about a product and its one answer, by the product's seller or an
 * admin. Answered, published questions are public; hidden ones stay for the asker and admins.
 */
export const productQuestions = pgTable(
  "product_questions",
  {
    id: uuid().primaryKey().defaultRandom(),
    productId: uuid()
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    askerId: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    text: text().notNull(),
    answer: text(),
    answeredBy: text().references(() => user.id, { onDelete: "set null" }),
    answeredAt: timestamp({ withTimezone: true }),
    status: text().notNull().default("published"),
    hiddenReason: text(),
    moderatedBy: text().references(() => user.id, { onDelete: "set null" }),
    moderatedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("product_questions_status", sql`${t.status} in ('published', 'hidden')`),
    check("product_questions_answer_complete", sql`(${t.answer} is null) = (${t.answeredAt} is null)`),
    // The product page's list, newest first; the seller's dashboard reads it per product too.
    index().on(t.productId, t.createdAt),
    // Answer times: a seller's answered questions of the last year.
    index("product_questions_answered_index")
      .on(t.productId, t.answeredAt)
      .where(sql`${t.answeredAt} is not null`),
    // The per-account limit on asking counts the asker's recent questions.
    index().on(t.askerId, t.createdAt),
  ],
);

/** One report per signed-in user and question, so admins see how many people flagged it. */
export const questionReports = pgTable(
  "question_reports",
  {
    questionId: uuid()
      .notNull()
      .references(() => productQuestions.id, { onDelete: "cascade" }),
    userId: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.questionId, t.userId] })],
);
