import { z } from "zod";
import {
  adminOrderListSchema,
  adminOrdersQuery,
  orderAnswerSchema,
  orderListSchema,
  orderStatusUpdateSchema,
  placeOrderSchema,
} from "#domain/checkout";
import { endpoint } from "#domain/endpoint";
import { paymentRedirectSchema } from "#domain/payments";

const idParams = z.object({ id: z.uuid("Unknown order") });

/** What the web calls of the server's `orders` module (`src/server/modules/orders/routes.ts`). */
export const ordersEndpoints = {
  "GET /admin/orders": endpoint({ query: adminOrdersQuery, answer: adminOrderListSchema, errors: [] }),
  "GET /orders": endpoint({ answer: orderListSchema, errors: [] }),
  "GET /orders/:id": endpoint({
    params: idParams,
    answer: orderAnswerSchema,
    errors: ["ORDER_NOT_FOUND"],
  }),
  "PATCH /admin/orders/:id": endpoint({
    params: idParams,
    body: orderStatusUpdateSchema,
    answer: orderAnswerSchema,
    errors: ["INVALID_ORDER_TRANSITION", "ORDER_NOT_FOUND"],
  }),
  "POST /orders": endpoint({
    status: [200, 201],
    body: placeOrderSchema,
    answer: paymentRedirectSchema,
    errors: [
      "INVALID_ORDER_TRANSITION",
      "ORDER_CANCELLED",
      "ORDER_NOT_FOUND",
      "PLAN_NOT_FOUND",
      "PRICE_CHANGED",
      "PRODUCT_UNAVAILABLE",
      "SEATS_OUT_OF_RANGE",
      "SHIPPING_ADDRESS_REQUIRED",
      "TRIAL_NOT_OFFERED",
      "TRIAL_USED",
      "TRIAL_NEEDS_CARD",
      "PAYMENT_METHOD_NOT_FOUND",
    ],
  }),
} as const;
