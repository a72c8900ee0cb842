import { z } from "zod";
import { endpoint } from "#domain/endpoint";
import { planListSchema, plansInputSchema } from "#domain/plan-schemas";
import {
  editableProductSchema,
  managedProductListSchema,
  manageProductsQuery,
  productInputSchema,
} from "#domain/product-admin";

const idParams = z.object({ id: z.uuid("Unknown product") });

/** One product as the product editor reads and writes it. */
export const productAnswerSchema = z.object({ product: editableProductSchema });

/** What the web calls of the server's `manage-products` module (`src/server/modules/manage-products/routes.ts`). */
export const manageProductsEndpoints = {
  "DELETE /manage/products/:id": endpoint({
    params: idParams,
    answer: productAnswerSchema,
    errors: ["PRODUCT_NOT_FOUND"],
  }),
  "GET /manage/products": endpoint({
    query: manageProductsQuery,
    answer: managedProductListSchema,
    errors: [],
  }),
  "GET /manage/products/:id": endpoint({
    params: idParams,
    answer: productAnswerSchema,
    errors: ["PRODUCT_NOT_FOUND"],
  }),
  "PATCH /manage/products/:id": endpoint({
    params: idParams,
    body: productInputSchema,
    answer: productAnswerSchema,
    errors: ["IMAGE_NOT_YOURS", "PRODUCT_NOT_FOUND"],
  }),
  "POST /manage/products": endpoint({
    status: 201,
    body: productInputSchema,
    answer: productAnswerSchema,
    errors: ["IMAGE_NOT_YOURS"],
  }),
  "GET /manage/products/:id/plans": endpoint({
    params: idParams,
    answer: planListSchema,
    errors: ["PRODUCT_NOT_FOUND"],
  }),
  "PUT /manage/products/:id/plans": endpoint({
    params: idParams,
    body: plansInputSchema,
    answer: planListSchema,
    errors: ["PLAN_NOT_FOUND", "PRODUCT_NOT_FOUND", "PRODUCT_NOT_RECURRING"],
  }),
  "POST /manage/products/:id/restore": endpoint({
    params: idParams,
    answer: productAnswerSchema,
    errors: ["PRODUCT_NOT_FOUND"],
  }),
} as const;
