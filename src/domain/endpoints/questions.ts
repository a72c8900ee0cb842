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

const productParams = z.object({ id: z.uuid({ error: "Product not found" }) });
const questionParams = z.object({ id: z.uuid({ error: "Question not found" }) });

/** What the web calls of the server's `questions` module (`src/server/modules/questions/routes.ts`). */
export const questionsEndpoints = {
  "GET /products/:id/questions": endpoint({
    params: productParams,
    query: questionListQuery,
    answer: questionListSchema,
    errors: ["PRODUCT_NOT_FOUND"],
  }),
  "GET /seller/questions": endpoint({
    query: questionListQuery,
    answer: sellerQuestionListSchema,
    errors: [],
  }),
  "POST /products/:id/questions": endpoint({
    status: 201,
    params: productParams,
    body: questionInputSchema,
    answer: questionSchema,
    errors: ["OWN_PRODUCT", "PRODUCT_NOT_FOUND", "QUESTION_LIMIT"],
  }),
  "POST /questions/:id/report": endpoint({
    params: questionParams,
    answer: null,
    errors: ["ALREADY_REPORTED", "QUESTION_NOT_FOUND"],
  }),
  "PUT /questions/:id/answer": endpoint({
    params: questionParams,
    body: answerInputSchema,
    answer: questionSchema,
    errors: ["ALREADY_ANSWERED", "FORBIDDEN", "QUESTION_NOT_FOUND"],
  }),
  "POST /admin/questions/:id/hide": endpoint({
    params: questionParams,
    body: questionModerationSchema,
    answer: questionSchema,
    errors: ["QUESTION_NOT_FOUND", "QUESTION_UNCHANGED"],
  }),
  "POST /admin/questions/:id/restore": endpoint({
    params: questionParams,
    body: questionModerationSchema,
    answer: questionSchema,
    errors: ["QUESTION_NOT_FOUND", "QUESTION_UNCHANGED"],
  }),
} as const;
