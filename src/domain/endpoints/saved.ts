import { z } from "zod";
import { savedListSchema } from "#domain/catalog-schemas";
import { endpoint } from "#domain/endpoint";

const params = z.object({ productId: z.uuid("Product id must be a UUID") });

/** The server's `saved` module (`src/server/modules/saved/routes.ts`). */
export const savedEndpoints = {
  "DELETE /saved/:productId": endpoint({
    params,
    answer: z.object({ saved: z.literal(false) }),
    errors: [],
  }),
  "GET /saved": endpoint({ answer: savedListSchema, errors: [] }),
  "GET /saved/:productId": endpoint({
    params,
    answer: z.object({ saved: z.boolean() }),
    errors: [],
  }),
  "PUT /saved/:productId": endpoint({
    params,
    answer: z.object({ saved: z.literal(true) }),
    errors: ["PRODUCT_NOT_FOUND"],
  }),
} as const;
