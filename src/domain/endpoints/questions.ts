import { z } from "zod";
import { endpoint } from "#domain/endpoint";
import {
  answerInputSchema,
  questionInputSchema,
  questionListQuery,
  questionListSchema,
  questionModerationSchema,
  questionSchema,
  sellerQuestionListSchema,
} from "#domain/questions";

/** What the web calls of the server's `questions` module (`src/server/modules/questions/routes.ts`). */
export const questionsEndpoints = {
  "GET /products/:id/questions": endpoint({
    params: z.object({ id: z.string() }),
    query: questionListQuery,
    answer: questionListSchema,
    errors: [],
  }),
  "GET /seller/questions": endpoint({
    query: questionListQuery,
    answer: sellerQuestionListSchema,
    errors: [],
  }),
  "POST /products/:id/questions": endpoint({
    params: z.object({ id: z.string() }),
    body: questionInputSchema,
    answer: questionSchema,
    errors: ["ALREADY_ANSWERED", "ALREADY_REPORTED", "OWN_PRODUCT", "QUESTION_LIMIT", "QUESTION_UNCHANGED"],
  }),
  "POST /questions/:id/report": endpoint({
    params: z.object({ id: z.string() }),
    answer: null,
    errors: ["ALREADY_ANSWERED", "ALREADY_REPORTED", "OWN_PRODUCT", "QUESTION_LIMIT", "QUESTION_UNCHANGED"],
  }),
  "PUT /questions/:id/answer": endpoint({
    params: z.object({ id: z.string() }),
    body: answerInputSchema,
    answer: questionSchema,
    errors: ["ALREADY_ANSWERED", "ALREADY_REPORTED", "OWN_PRODUCT", "QUESTION_LIMIT", "QUESTION_UNCHANGED"],
  }),
  "POST /admin/questions/:id/hide": endpoint({
    params: z.object({ id: z.string() }),
    body: questionModerationSchema,
    answer: questionSchema,
    errors: ["ALREADY_ANSWERED", "ALREADY_REPORTED", "OWN_PRODUCT", "QUESTION_LIMIT", "QUESTION_UNCHANGED"],
  }),
  "POST /admin/questions/:id/restore": endpoint({
    params: z.object({ id: z.string() }),
    body: questionModerationSchema,
    answer: questionSchema,
    errors: ["ALREADY_ANSWERED", "ALREADY_REPORTED", "OWN_PRODUCT", "QUESTION_LIMIT", "QUESTION_UNCHANGED"],
  }),
} as const;
