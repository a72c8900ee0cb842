import { z } from "zod";
import {
  contentBlockInputSchema,
  contentBlockKeySchema,
  contentBlockListSchema,
  contentBlockSchema,
  searchQuery,
} from "#domain/cms";
import { endpoint } from "#domain/endpoint";

/** What the web calls of the server's `content-blocks` module (`src/server/modules/content-blocks/routes.ts`). */
export const contentBlocksEndpoints = {
  "GET /admin/content-blocks": endpoint({ query: searchQuery, answer: contentBlockListSchema, errors: [] }),
  "PUT /admin/content-blocks/:key": endpoint({
    params: z.object({ key: contentBlockKeySchema }),
    body: contentBlockInputSchema,
    answer: z.object({ block: contentBlockSchema }),
    errors: [],
  }),
} as const;
