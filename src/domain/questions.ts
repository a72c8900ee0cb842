import { z } from "zod";
import { DAY_MS } from "#domain/dates";
import { paged, pageNumber } from "#domain/paging";
import { reviewModerationSchema } from "#domain/reviews";

/** Questions one account may ask within QUESTION_RATE_WINDOW_MS, across all products. */
export const QUESTION_RATE_MAX = 5;
export const QUESTION_RATE_WINDOW_MS = 60 * 60 * 1000;

/** The seller's answer time counts their answers of this many days back, and only once there are enough. */
export const ANSWER_TIME_WINDOW_DAYS = 365;
export const ANSWER_TIME_MIN_ANSWERS = 3;

const HOUR_MS = 60 * 60 * 1000;

/**
 * What a product page says about how fast its seller answers, from the median time between a question
 * and its answer: whole hours rounded up below a day, then whole days rounded up. Null (nothing shown)
 * with fewer than ANSWER_TIME_MIN_ANSWERS answers, since one quick reply says little.
 */
export function answerTimeLabel(stats: { answered: number; medianMs: number } | null): string | null {
  if (!stats || stats.answered < ANSWER_TIME_MIN_ANSWERS) return null;
  const ms = Math.max(0, stats.medianMs);
  if (ms <= HOUR_MS) return "Usually answers within an hour";
  const hours = Math.ceil(ms / HOUR_MS);
  if (hours < 24) return `Usually answers within ${hours} hours`;
  const days = Math.ceil(ms / DAY_MS);
  if (days === 1) return "Usually answers within a day";
  return `Usually answers within ${days} days`;
}

/** The ask form and `POST /api/products/{id}/questions`. */
export const questionInputSchema = z.object({
  text: z
    .string({ error: "Question is required" })
    .trim()
    .min(10, "Question must be at least 10 characters")
    .max(1000, "Question must be at most 1000 characters"),
});
export type QuestionInput = z.infer<typeof questionInputSchema>;

/** The seller's or an admin's answer, and its later edit by whoever wrote it. */
export const answerInputSchema = z.object({
  text: z
    .string({ error: "Answer is required" })
    .trim()
    .min(1, "Answer is required")
    .max(2000, "Answer must be at most 2000 characters"),
});
export type AnswerInput = z.infer<typeof answerInputSchema>;

/** Hiding and restoring a question takes a reason like a review does (the asker reads it). */
export const questionModerationSchema = reviewModerationSchema;

export const questionListQuery = z.object({ page: pageNumber });
export const QUESTION_PAGE_SIZE = 10;

export const questionStatuses = ["published", "hidden"] as const;

export const questionSchema = z.object({
  id: z.string(),
  productId: z.string(),
  text: z.string(),
  askerFirstName: z.string(),
  createdAt: z.string(),
  answer: z
    .object({
      text: z.string(),
      answeredAt: z.string(),
      /** Whether the seller or Stackbay's team answered; never who. */
      by: z.enum(["seller", "admin"]),
    })
    .nullable(),
  status: z.enum(questionStatuses),
  /** Only the asker and admins read why a question was hidden. */
  hiddenReason: z.string().nullable(),
  isMine: z.boolean(),
  /** Unanswered: the product's seller or an admin may answer; answered: only its answerer may edit. */
  canAnswer: z.boolean(),
  reportedByMe: z.boolean(),
  /** Admins only; null for anyone else. */
  reportsCount: z.number().nullable(),
});
export type Question = z.infer<typeof questionSchema>;

export const questionViewerSchema = z.object({
  signedIn: z.boolean(),
  /** Signed in and not the product's seller. */
  canAsk: z.boolean(),
  isSeller: z.boolean(),
  isAdmin: z.boolean(),
});
export type QuestionViewer = z.infer<typeof questionViewerSchema>;

export const questionListSchema = paged(questionSchema).extend({
  viewer: questionViewerSchema,
  /** The product seller's answer time (`answerTimeLabel`), or null while there are too few answers. */
  answerTime: z.string().nullable(),
});
export type QuestionList = z.infer<typeof questionListSchema>;

/** A question in the seller's dashboard: which of their products it is about. */
export const sellerQuestionSchema = questionSchema.extend({ productName: z.string() });
export type SellerQuestion = z.infer<typeof sellerQuestionSchema>;
export const sellerQuestionListSchema = paged(sellerQuestionSchema).extend({
  /** How many of the seller's questions wait for an answer, across all pages. */
  unanswered: z.number(),
});
export type SellerQuestionList = z.infer<typeof sellerQuestionListSchema>;
