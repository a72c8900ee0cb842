import { z } from "zod";
import {
  pageAnswerSchema,
  pageInputSchema,
  pageListSchema,
  publicPageSchema,
  searchQuery,
} from "#domain/cms";
import { endpoint, okAnswerSchema } from "#domain/endpoint";

export const pagesEndpoints = {
  "DELETE /admin/pages/:id": endpoint({
    params: z.object({ id: z.string() }),
    answer: okAnswerSchema,
    errors: ["PAGE_NOT_FOUND", "PAGE_SLUG_TAKEN"],
  }),
  "GET /admin/pages": endpoint({ query: searchQuery, answer: pageListSchema, errors: [] }),
  "GET /admin/pages/:id": endpoint({
    params: z.object({ id: z.string() }),
    answer: pageAnswerSchema,
    errors: ["PAGE_NOT_FOUND"],
  }),
  "GET /pages/:slug": endpoint({
    params: z.object({ slug: z.string() }),
    answer: z.object({ page: publicPageSchema }),
    errors: ["PAGE_NOT_FOUND"],
  }),
  "PATCH /admin/pages/:id": endpoint({
    params: z.object({ id: z.string() }),
    body: pageInputSchema,
    answer: pageAnswerSchema,
    errors: ["PAGE_NOT_FOUND", "PAGE_SLUG_TAKEN"],
  }),
  "POST /admin/pages": endpoint({
    body: pageInputSchema,
    answer: pageAnswerSchema,
    errors: ["PAGE_NOT_FOUND", "PAGE_SLUG_TAKEN"],
  }),
} as const;
