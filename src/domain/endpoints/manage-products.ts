import { z } from "zod";
import { endpoint } from "#domain/endpoint";
import {
  managedProductListSchema,
  manageProductsQuery,
  productAnswerSchema,
  productInputSchema,
} from "#domain/product-admin";

export const manageProductsEndpoints = {
  "DELETE /manage/products/:id": endpoint({
    params: z.object({ id: z.string() }),
    answer: productAnswerSchema,
    errors: ["IMAGE_NOT_YOURS", "PRODUCT_NOT_FOUND"],
  }),
  "GET /manage/products": endpoint({
    query: manageProductsQuery,
    answer: managedProductListSchema,
    errors: [],
  }),
  "GET /manage/products/:id": endpoint({
    params: z.object({ id: z.string() }),
    answer: productAnswerSchema,
    errors: ["PRODUCT_NOT_FOUND"],
  }),
  "PATCH /manage/products/:id": endpoint({
    params: z.object({ id: z.string() }),
    body: productInputSchema,
    answer: productAnswerSchema,
    errors: ["IMAGE_NOT_YOURS", "PRODUCT_NOT_FOUND"],
  }),
  "POST /manage/products": endpoint({
    body: productInputSchema,
    answer: productAnswerSchema,
    errors: ["IMAGE_NOT_YOURS", "PRODUCT_NOT_FOUND"],
  }),
  "POST /manage/products/:id/restore": endpoint({
    params: z.object({ id: z.string() }),
    answer: productAnswerSchema,
    errors: ["IMAGE_NOT_YOURS", "PRODUCT_NOT_FOUND"],
  }),
} as const;
