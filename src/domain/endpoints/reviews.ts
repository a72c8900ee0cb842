import { z } from "zod";
import { endpoint } from "#domain/endpoint";
import { questionModerationSchema } from "#domain/questions";
import {
  reviewInputSchema,
  reviewListQuery,
  reviewListSchema,
  reviewReplySchema,
  reviewSchema,
} from "#domain/reviews";

const productParams = z.object({ id: z.uuid({ error: "Product not found" }) });
const reviewParams = z.object({ id: z.uuid({ error: "Review not found" }) });

/** What the web calls of the server's `reviews` module (`src/server/modules/reviews/routes.ts`). */
export const reviewsEndpoints = {
  "GET /products/:id/reviews": endpoint({
    params: productParams,
    query: reviewListQuery,
    answer: reviewListSchema,
    errors: ["PRODUCT_NOT_FOUND"],
  }),
  "PATCH /reviews/:id": endpoint({
    params: reviewParams,
    body: reviewInputSchema,
    answer: reviewSchema,
    errors: ["EDIT_WINDOW_CLOSED", "PURCHASE_REFUNDED", "REVIEW_NOT_FOUND"],
  }),
  "POST /products/:id/reviews": endpoint({
    status: 201,
    params: productParams,
    body: reviewInputSchema,
    answer: reviewSchema,
    errors: ["ALREADY_REVIEWED", "NOT_ELIGIBLE", "OWN_PRODUCT", "PRODUCT_NOT_FOUND"],
  }),
  "POST /reviews/:id/reply": endpoint({
    params: reviewParams,
    body: reviewReplySchema,
    answer: reviewSchema,
    errors: ["ALREADY_REPLIED", "FORBIDDEN", "REVIEW_NOT_FOUND"],
  }),
  "POST /reviews/:id/report": endpoint({
    params: reviewParams,
    answer: null,
    errors: ["ALREADY_REPORTED", "REVIEW_NOT_FOUND"],
  }),
  "POST /admin/reviews/:id/hide": endpoint({
    params: reviewParams,
    body: questionModerationSchema,
    answer: reviewSchema,
    errors: ["REVIEW_NOT_FOUND", "REVIEW_UNCHANGED"],
  }),
  "POST /admin/reviews/:id/restore": endpoint({
    params: reviewParams,
    body: questionModerationSchema,
    answer: reviewSchema,
    errors: ["REVIEW_NOT_FOUND", "REVIEW_UNCHANGED"],
  }),
} as const;
