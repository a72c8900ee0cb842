import { z } from "zod";
import { adminCategoryListSchema, categoryInputSchema, createdCategorySchema } from "#domain/category-admin";
import { endpoint, okAnswerSchema } from "#domain/endpoint";

const idParams = z.object({ id: z.uuid("Unknown category") });

/** What the web calls of the server's `categories` module (`src/server/modules/categories/routes.ts`). */
export const categoriesEndpoints = {
  "DELETE /admin/categories/:id": endpoint({
    params: idParams,
    answer: okAnswerSchema,
    errors: ["CATEGORY_IN_USE", "CATEGORY_NOT_FOUND"],
  }),
  "GET /admin/categories": endpoint({ answer: adminCategoryListSchema, errors: [] }),
  "POST /admin/categories": endpoint({
    status: 201,
    body: categoryInputSchema,
    answer: createdCategorySchema,
    errors: ["CATEGORY_EXISTS"],
  }),
} as const;
