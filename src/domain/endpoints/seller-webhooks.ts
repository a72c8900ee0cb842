import { z } from "zod";
import { endpoint } from "#domain/endpoint";
import { pageNumber } from "#domain/paging";
import {
  sellerWebhookDeliveryPageSchema,
  sellerWebhookDeliverySchema,
  sellerWebhookEndpointListSchema,
  sellerWebhookEndpointSchema,
  sellerWebhookInputSchema,
  sellerWebhookIssuedSchema,
  sellerWebhookUpdateSchema,
} from "#domain/seller-webhooks";

const endpointParams = z.object({ id: z.uuid("Unknown webhook endpoint") });
const deliveryParams = z.object({ id: z.uuid("Unknown delivery") });
const deliveriesQuery = z.object({
  page: pageNumber,
  endpointId: z.uuid("Unknown webhook endpoint").optional(),
});

/** The operations on a seller's webhooks, the same on the dashboard and in the seller API. */
const operations = {
  list: endpoint({ answer: sellerWebhookEndpointListSchema, errors: [] }),
  create: endpoint({
    body: sellerWebhookInputSchema,
    answer: sellerWebhookIssuedSchema,
    status: 201,
    errors: ["WEBHOOK_URL_REFUSED", "WEBHOOK_ENDPOINT_LIMIT"],
  }),
  update: endpoint({
    params: endpointParams,
    body: sellerWebhookUpdateSchema,
    answer: sellerWebhookEndpointSchema,
    errors: ["WEBHOOK_URL_REFUSED", "WEBHOOK_ENDPOINT_NOT_FOUND"],
  }),
  remove: endpoint({
    params: endpointParams,
    answer: sellerWebhookEndpointListSchema,
    errors: ["WEBHOOK_ENDPOINT_NOT_FOUND"],
  }),
  rotate: endpoint({
    params: endpointParams,
    answer: sellerWebhookIssuedSchema,
    errors: ["WEBHOOK_ENDPOINT_NOT_FOUND"],
  }),
  test: endpoint({
    params: endpointParams,
    answer: sellerWebhookDeliverySchema,
    status: 201,
    errors: ["WEBHOOK_ENDPOINT_NOT_FOUND"],
  }),
  deliveries: endpoint({ query: deliveriesQuery, answer: sellerWebhookDeliveryPageSchema, errors: [] }),
  replay: endpoint({
    params: deliveryParams,
    answer: sellerWebhookDeliverySchema,
    errors: ["WEBHOOK_DELIVERY_NOT_FOUND"],
  }),
} as const;

/**
 * What the web calls of the server's `seller-webhooks` module (`src/server/modules/seller-webhooks/routes.ts`):
 * a seller's webhook endpoints and their deliveries, on the dashboard.
 */
export const sellerWebhooksEndpoints = {
  "GET /seller-webhooks/endpoints": operations.list,
  "POST /seller-webhooks/endpoints": operations.create,
  "PATCH /seller-webhooks/endpoints/:id": operations.update,
  "DELETE /seller-webhooks/endpoints/:id": operations.remove,
  "POST /seller-webhooks/endpoints/:id/rotate": operations.rotate,
  "POST /seller-webhooks/endpoints/:id/test": operations.test,
  "GET /seller-webhooks/deliveries": operations.deliveries,
  "POST /seller-webhooks/deliveries/:id/replay": operations.replay,
} as const;

/**
 * The same operations in the seller API, with a key holding the `webhooks:write` scope; part of
 * `sellerApiExternalEndpoints`, served by `seller-api/routes.ts`.
 */
export const sellerWebhooksApiEndpoints = {
  "GET /seller/v1/webhooks": operations.list,
  "POST /seller/v1/webhooks": operations.create,
  "PATCH /seller/v1/webhooks/:id": operations.update,
  "DELETE /seller/v1/webhooks/:id": operations.remove,
  "POST /seller/v1/webhooks/:id/rotate": operations.rotate,
  "POST /seller/v1/webhooks/:id/test": operations.test,
  "GET /seller/v1/webhook-deliveries": operations.deliveries,
  "POST /seller/v1/webhook-deliveries/:id/replay": operations.replay,
} as const;
