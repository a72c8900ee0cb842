import { z } from "zod";
import { pageInputSchema, pageListSchema, pageSchema, publicPageSchema, searchQuery } from "#domain/cms";
import { endpoint, okAnswerSchema } from "#domain/endpoint";

const idParams = z.object({ id: z.string().max(64) });

/** One page as the page editor reads and writes it. */
export const pageAnswerSchema = z.object({ page: pageSchema });

/** What the web calls of the server's `pages` module (`src/server/modules/pages/routes.ts`). */
export const pagesEndpoints = {
  "DELETE /admin/pages/:id": endpoint({
    params: idParams,
    answer: okAnswerSchema,
    errors: ["PAGE_NOT_FOUND"],
  }),
  "GET /admin/pages": endpoint({ query: searchQuery, answer: pageListSchema, errors: [] }),
  "GET /admin/pages/:id": endpoint({
    params: idParams,
    answer: pageAnswerSchema,
    errors: ["PAGE_NOT_FOUND"],
  }),
  "GET /pages/:slug": endpoint({
    params: z.object({ slug: z.string().max(200) }),
    answer: z.object({ page: publicPageSchema }),
    errors: ["PAGE_NOT_FOUND"],
  }),
  "PATCH /admin/pages/:id": endpoint({
    params: idParams,
    body: pageInputSchema,
    answer: pageAnswerSchema,
    errors: ["PAGE_NOT_FOUND", "PAGE_SLUG_TAKEN"],
  }),
  "POST /admin/pages": endpoint({
    status: 201,
    body: pageInputSchema,
    answer: pageAnswerSchema,
    errors: ["PAGE_SLUG_TAKEN"],
  }),
} as const;
