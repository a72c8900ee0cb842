import { z } from "zod";
import { savedListSchema } from "#domain/catalog-schemas";
import { endpoint } from "#domain/endpoint";

/** What the web calls of the server's `saved` module (`src/server/modules/saved/routes.ts`). */
export const savedEndpoints = {
  "DELETE /saved/:productId": endpoint({
    params: z.object({ productId: z.string() }),
    answer: z.object({ saved: z.literal(false) }),
    errors: ["PRODUCT_NOT_FOUND"],
  }),
  "GET /saved": endpoint({ answer: savedListSchema, errors: [] }),
  "GET /saved/:productId": endpoint({
    params: z.object({ productId: z.string() }),
    answer: z.object({ saved: z.boolean() }),
    errors: ["PRODUCT_NOT_FOUND"],
  }),
  "PUT /saved/:productId": endpoint({
    params: z.object({ productId: z.string() }),
    answer: z.object({ saved: z.literal(true) }),
    errors: ["PRODUCT_NOT_FOUND"],
  }),
} as const;
