import { z } from "zod";
import { compareAnswerSchema, compareQuery, relatedAnswerSchema } from "#domain/compare";
import { endpoint } from "#domain/endpoint";

/** What the web calls of the server's `compare` module (`src/server/modules/compare/routes.ts`). */
export const compareEndpoints = {
  "GET /compare": endpoint({ query: compareQuery, answer: compareAnswerSchema, errors: [] }),
  "GET /products/:id/related": endpoint({
    params: z.object({ id: z.string().max(64) }),
    answer: relatedAnswerSchema,
    errors: ["PRODUCT_NOT_FOUND"],
  }),
} as const;
