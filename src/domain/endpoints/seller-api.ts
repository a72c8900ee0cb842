import { z } from "zod";
import { receivedOrdersPageSchema } from "#domain/earnings";
import { endpoint, pageQuery } from "#domain/endpoint";
import { sellerWebhooksApiEndpoints } from "#domain/endpoints/seller-webhooks";
import { sellerLicenseDetailSchema, sellerLicensePageSchema } from "#domain/license-schemas";
import {
  sellerApiCallPageSchema,
  sellerApiKeyInputSchema,
  sellerApiKeyIssuedSchema,
  sellerApiKeyListSchema,
  sellerApiWhoAmISchema,
} from "#domain/seller-api";
import {
  sellerSubscriptionReportSchema,
  sellerSubscriptionsQuery,
} from "#domain/subscription-report-schemas";

const idParams = z.object({ id: z.uuid("Unknown API key") });
const licenseParams = z.object({ id: z.uuid("Unknown license") });
const activationParams = z.object({
  id: z.uuid("Unknown license"),
  activationId: z.uuid("Unknown activation"),
});

/**
 * What the web calls of the server's `seller-api` module (`src/server/modules/seller-api/routes.ts`): a
 * seller's API keys and the access log of their calls.
 */
export const sellerApiEndpoints = {
  "GET /seller-api/keys": endpoint({ answer: sellerApiKeyListSchema, errors: [] }),
  "POST /seller-api/keys": endpoint({
    body: sellerApiKeyInputSchema,
    answer: sellerApiKeyIssuedSchema,
    status: 201,
    errors: ["API_KEY_LIMIT"],
  }),
  "POST /seller-api/keys/:id/roll": endpoint({
    params: idParams,
    answer: sellerApiKeyIssuedSchema,
    errors: ["API_KEY_NOT_FOUND", "API_KEY_REVOKED"],
  }),
  "DELETE /seller-api/keys/:id": endpoint({
    params: idParams,
    answer: sellerApiKeyListSchema,
    errors: ["API_KEY_NOT_FOUND"],
  }),
  "GET /seller-api/calls": endpoint({ query: pageQuery, answer: sellerApiCallPageSchema, errors: [] }),
} as const;

/**
 * The seller API itself, called by sellers' own systems with an API key (`Authorization: Bearer sbk_…`),
 * never by the web app: its own section of the OpenAPI document. Its guard (`requireSellerKey`) answers
 * `API_KEY_INVALID` and `API_KEY_SCOPE`, which the document lists from the guard.
 */
export const sellerApiExternalEndpoints = {
  "GET /seller/v1/key": endpoint({ answer: sellerApiWhoAmISchema, errors: [] }),
  "GET /seller/v1/orders": endpoint({
    query: pageQuery,
    answer: receivedOrdersPageSchema,
    errors: [],
  }),
  "GET /seller/v1/subscriptions": endpoint({
    query: sellerSubscriptionsQuery,
    answer: sellerSubscriptionReportSchema,
    errors: [],
  }),
  "GET /seller/v1/licenses": endpoint({ query: pageQuery, answer: sellerLicensePageSchema, errors: [] }),
  "GET /seller/v1/licenses/:id": endpoint({
    params: licenseParams,
    answer: sellerLicenseDetailSchema,
    errors: ["LICENSE_NOT_FOUND"],
  }),
  "POST /seller/v1/licenses/:id/suspend": endpoint({
    params: licenseParams,
    answer: sellerLicenseDetailSchema,
    errors: ["LICENSE_NOT_FOUND", "LICENSE_REVOKED"],
  }),
  "POST /seller/v1/licenses/:id/reinstate": endpoint({
    params: licenseParams,
    answer: sellerLicenseDetailSchema,
    errors: ["LICENSE_NOT_FOUND", "LICENSE_REVOKED"],
  }),
  "DELETE /seller/v1/licenses/:id/activations/:activationId": endpoint({
    params: activationParams,
    answer: sellerLicenseDetailSchema,
    errors: ["LICENSE_NOT_FOUND", "LICENSE_ACTIVATION_NOT_FOUND"],
  }),
  ...sellerWebhooksApiEndpoints,
} as const;
