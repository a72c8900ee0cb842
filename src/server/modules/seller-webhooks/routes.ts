import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { requireRole, signedInUser } from "#server/auth/guards";
import { route } from "#server/http/route";
import {
  changeEndpoint,
  createEndpoint,
  listDeliveries,
  listEndpoints,
  removeEndpoint,
  replayDelivery,
  rotateSecret,
  sellerWebhookDepsOf,
  sendTestEvent,
} from "#server/modules/seller-webhooks/service";

/** What each webhook operation says in the OpenAPI document, the same on the dashboard and in the seller API. */
export const webhookOperationDocs = {
  list: { summary: "Your webhook endpoints, newest first; never their secrets" },
  create: {
    summary:
      "Register a webhook endpoint with the events it receives; the answer holds its signing secret, once",
    description:
      "At most 10 endpoints (409 `WEBHOOK_ENDPOINT_LIMIT`). In production the URL must be https:// and its host must resolve to public addresses only (400 `WEBHOOK_URL_REFUSED`). The answer holds the signing secret (`whsec_…`), once. Audited.",
  },
  update: {
    summary: "Change a webhook endpoint, or turn it on or off",
    description:
      "Any of url, description, events; `enabled: true` turns an endpoint that was turned off back on, `enabled: false` turns it off. Another seller's endpoint answers 404. Audited.",
  },
  remove: { summary: "Delete a webhook endpoint and its deliveries; answers your endpoints" },
  rotate: {
    summary: "Make a new signing secret; the answer holds it, once",
    description:
      "The secret it replaces keeps signing beside the new one for 24 hours (one `v1=` each), then stops. Audited.",
  },
  test: {
    summary: "Send a test event to an endpoint",
    description:
      "Sends a `ping` event to this endpoint now, even one turned off; one attempt, not retried. Answers the delivery once attempted.",
  },
  deliveries: {
    summary:
      "Your webhook deliveries, newest first, each with its payload and last attempt; `endpointId` keeps one endpoint's",
  },
  replay: {
    summary: "Replay a delivery",
    description:
      "The same event, with the same id, posted again now; one attempt, not retried, made before answering. Another seller's delivery answers 404.",
  },
} as const;

/** The rate limit of the dashboard's writes. */
const writes = { rateLimit: { max: 30, timeWindow: "10 minutes" } };

/**
 * Webhooks to sellers (decision 0030): a seller's endpoints and their deliveries on the dashboard, signed
 * in. The same services answer the seller API's webhook operations (`webhooks:write`), registered with
 * the rest of the seller API in `seller-api/routes.ts`.
 */
export const sellerWebhookRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = sellerWebhookDepsOf(app);
  const dashboard = { tags: ["seller-webhooks"], onRequest: requireRole("seller") };
  const docs = webhookOperationDocs;

  route(app, "GET /seller-webhooks/endpoints", { ...dashboard, ...docs.list }, async (request) =>
    listEndpoints(deps, signedInUser(request).id),
  );
  route(
    app,
    "POST /seller-webhooks/endpoints",
    { ...dashboard, ...docs.create, config: writes },
    async (request) => createEndpoint(deps, signedInUser(request), request.body),
  );
  route(
    app,
    "PATCH /seller-webhooks/endpoints/:id",
    { ...dashboard, ...docs.update, config: writes },
    async (request) => changeEndpoint(deps, signedInUser(request), request.params.id, request.body),
  );
  route(app, "DELETE /seller-webhooks/endpoints/:id", { ...dashboard, ...docs.remove }, async (request) =>
    removeEndpoint(deps, signedInUser(request), request.params.id),
  );
  route(
    app,
    "POST /seller-webhooks/endpoints/:id/rotate",
    { ...dashboard, ...docs.rotate, config: writes },
    async (request) => rotateSecret(deps, signedInUser(request), request.params.id),
  );
  route(
    app,
    "POST /seller-webhooks/endpoints/:id/test",
    { ...dashboard, ...docs.test, config: writes },
    async (request) => sendTestEvent(deps, signedInUser(request), request.params.id),
  );
  route(app, "GET /seller-webhooks/deliveries", { ...dashboard, ...docs.deliveries }, async (request) =>
    listDeliveries(deps, signedInUser(request).id, request.query),
  );
  route(
    app,
    "POST /seller-webhooks/deliveries/:id/replay",
    { ...dashboard, ...docs.replay, config: writes },
    async (request) => replayDelivery(deps, signedInUser(request), request.params.id),
  );
};
