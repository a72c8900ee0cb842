import { z } from "zod";
import { endpoint } from "#domain/endpoint";
import {
  markShippedSchema,
  shipmentAnswerSchema,
  shipmentListSchema,
  shipmentsQuery,
} from "#domain/shipping";

/** What the web calls of the server's `shipping` module (`src/server/modules/shipping/routes.ts`). */
export const shippingEndpoints = {
  "GET /seller/shipments": endpoint({ query: shipmentsQuery, answer: shipmentListSchema, errors: [] }),
  "POST /orders/:orderId/items/:itemId/confirm-delivery": endpoint({
    params: z.object({ orderId: z.uuid("Unknown order"), itemId: z.uuid("Unknown order item") }),
    answer: shipmentAnswerSchema,
    errors: ["NOT_SHIPPED", "SHIPMENT_NOT_FOUND"],
  }),
  "POST /shipments/:itemId/ship": endpoint({
    params: z.object({ itemId: z.uuid("Unknown order item") }),
    body: markShippedSchema,
    answer: shipmentAnswerSchema,
    errors: ["ALREADY_SHIPPED", "ITEM_REFUNDED", "ORDER_NOT_PAID", "SHIPMENT_NOT_FOUND"],
  }),
} as const;
