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
    params: z.object({ id: z.string() }),
    query: reviewListQuery,
    answer: reviewListSchema,
    errors: [],
  }),
  "PATCH /reviews/:id": endpoint({
    params: z.object({ id: z.string() }),
    body: reviewInputSchema,
    answer: reviewSchema,
    errors: reviewsErrors,
  }),
  "POST /products/:id/reviews": endpoint({
    params: z.object({ id: z.string() }),
    body: reviewInputSchema,
    answer: reviewSchema,
    errors: reviewsErrors,
  }),
  "POST /reviews/:id/reply": endpoint({
    params: z.object({ id: z.string() }),
    body: reviewReplySchema,
    answer: reviewSchema,
    errors: reviewsErrors,
  }),
  "POST /reviews/:id/report": endpoint({
    params: z.object({ id: z.string() }),
    answer: null,
    errors: reviewsErrors,
  }),
  "POST /admin/reviews/:id/hide": endpoint({
    params: z.object({ id: z.string() }),
    body: questionModerationSchema,
    answer: reviewSchema,
    errors: reviewsErrors,
  }),
  "POST /admin/reviews/:id/restore": endpoint({
    params: z.object({ id: z.string() }),
    body: questionModerationSchema,
    answer: reviewSchema,
    errors: reviewsErrors,
  }),
} as const;
