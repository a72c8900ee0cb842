import { z } from "zod";
import { endpoint, okAnswerSchema } from "#domain/endpoint";
import {
  suggestionsQuery,
  suggestionsSchema,
  synonymInputSchema,
  synonymListSchema,
  synonymSchema,
} from "#domain/search";

const idParams = z.object({ id: z.uuid("Unknown synonym") });

/** What the web calls of the server's `search` module (`src/server/modules/search/routes.ts`). */
export const searchEndpoints = {
  "DELETE /admin/search/synonyms/:id": endpoint({
    params: idParams,
    answer: okAnswerSchema,
    errors: ["SYNONYM_NOT_FOUND"],
  }),
  "GET /admin/search/synonyms": endpoint({ answer: synonymListSchema, errors: [] }),
  "GET /search/suggestions": endpoint({ query: suggestionsQuery, answer: suggestionsSchema, errors: [] }),
  "POST /admin/search/synonyms": endpoint({
    status: 201,
    body: synonymInputSchema,
    answer: synonymSchema,
    errors: ["SYNONYM_EXISTS"],
  }),
  "PUT /admin/search/synonyms/:id": endpoint({
    params: idParams,
    body: synonymInputSchema,
    answer: synonymSchema,
    errors: ["SYNONYM_EXISTS", "SYNONYM_NOT_FOUND"],
  }),
} as const;
