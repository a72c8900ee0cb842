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
/** Every code this module's services can answer: the endpoints below that reach them share the list. */
const reviewsErrors = [
  "ALREADY_REPLIED",
  "ALREADY_REPORTED",
  "ALREADY_REVIEWED",
  "EDIT_WINDOW_CLOSED",
  "NOT_ELIGIBLE",
  "OWN_PRODUCT",
  "PURCHASE_REFUNDED",
  "REVIEW_UNCHANGED",
] as const;

export const reviewsEndpoints = {
  "GET /products/:id/reviews": endpoint({
    params: productParams,
    query: reviewListQuery,
    answer: reviewListSchema,
    errors: ["NOT_FOUND"],
  }),
  "PATCH /reviews/:id": endpoint({
    params: reviewParams,
    body: reviewInputSchema,
    answer: reviewSchema,
    errors: [...reviewsErrors, "NOT_FOUND"],
  }),
  "POST /products/:id/reviews": endpoint({
    status: 201,
    params: productParams,
    body: reviewInputSchema,
    answer: reviewSchema,
    errors: [...reviewsErrors, "NOT_FOUND"],
  }),
  "POST /reviews/:id/reply": endpoint({
    params: reviewParams,
    body: reviewReplySchema,
    answer: reviewSchema,
    errors: ["FORBIDDEN", "NOT_FOUND", ...reviewsErrors],
  }),
  "POST /reviews/:id/report": endpoint({
    params: reviewParams,
    answer: null,
    errors: [...reviewsErrors, "NOT_FOUND"],
  }),
  "POST /admin/reviews/:id/hide": endpoint({
    params: reviewParams,
    body: questionModerationSchema,
    answer: reviewSchema,
    errors: [...reviewsErrors, "NOT_FOUND"],
  }),
  "POST /admin/reviews/:id/restore": endpoint({
    params: reviewParams,
    body: questionModerationSchema,
    answer: reviewSchema,
    errors: [...reviewsErrors, "NOT_FOUND"],
  }),
} as const;
