import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { requireRole, signedInUser } from "#server/auth/guards";
import { route } from "#server/http/route";
import { sellerApiDepsOf, sellerKeyed } from "#server/modules/seller-api/service";
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

const writes = { rateLimit: { max: 30, timeWindow: "10 minutes" } };

/**
 * Webhooks to sellers (decision 0029): a seller's endpoints and their deliveries, on the dashboard
 * (signed in) and in the seller API with a key holding `webhooks:write`. Both call the same services.
 */
export const sellerWebhookRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = sellerWebhookDepsOf(app);
  const dashboard = { tags: ["seller-webhooks"], onRequest: requireRole("seller") };
  const keyed = { ...sellerKeyed(sellerApiDepsOf(app), "webhooks:write") };

  route(
    app,
    "GET /seller-webhooks/endpoints",
    { ...dashboard, summary: "Your webhook endpoints, newest first; never their secrets" },
    async (request) => listEndpoints(deps, signedInUser(request).id),
  );
  route(
    app,
    "GET /seller/v1/webhooks",
    {
      ...keyed,
      summary: "Your webhook endpoints, newest first; never their secrets",
      description: "Scope `webhooks:write`.",
    },
    async (request) => listEndpoints(deps, signedInUser(request).id),
  );

  const createDescription =
    "At most 10 endpoints (409 `WEBHOOK_ENDPOINT_LIMIT`). In production the URL must be https:// and its host must resolve to public addresses only (400 `WEBHOOK_URL_REFUSED`). The answer holds the signing secret (`whsec_…`), once. Audited.";
  route(
    app,
    "POST /seller-webhooks/endpoints",
    {
      ...dashboard,
      summary:
        "Register a webhook endpoint with the events it receives; the answer holds its signing secret, once",
      description: createDescription,
      config: writes,
    },
    async (request) => createEndpoint(deps, signedInUser(request), request.body),
  );
  route(
    app,
    "POST /seller/v1/webhooks",
    {
      ...keyed,
      summary:
        "Register a webhook endpoint with the events it receives; the answer holds its signing secret, once",
      description: `Scope \`webhooks:write\`. ${createDescription}`,
    },
    async (request) => createEndpoint(deps, signedInUser(request), request.body),
  );

  const updateDescription =
    "Any of url, description, events; `enabled: true` turns an endpoint that was turned off back on, `enabled: false` turns it off. Another seller's endpoint answers 404. Audited.";
  route(
    app,
    "PATCH /seller-webhooks/endpoints/:id",
    {
      ...dashboard,
      summary: "Change a webhook endpoint, or turn it on or off",
      description: updateDescription,
      config: writes,
    },
    async (request) => changeEndpoint(deps, signedInUser(request), request.params.id, request.body),
  );
  route(
    app,
    "PATCH /seller/v1/webhooks/:id",
    {
      ...keyed,
      summary: "Change a webhook endpoint, or turn it on or off",
      description: `Scope \`webhooks:write\`. ${updateDescription}`,
    },
    async (request) => changeEndpoint(deps, signedInUser(request), request.params.id, request.body),
  );

  route(
    app,
    "DELETE /seller-webhooks/endpoints/:id",
    { ...dashboard, summary: "Delete a webhook endpoint and its deliveries; answers your endpoints" },
    async (request) => removeEndpoint(deps, signedInUser(request), request.params.id),
  );
  route(
    app,
    "DELETE /seller/v1/webhooks/:id",
    {
      ...keyed,
      summary: "Delete a webhook endpoint and its deliveries; answers your endpoints",
      description: "Scope `webhooks:write`.",
    },
    async (request) => removeEndpoint(deps, signedInUser(request), request.params.id),
  );

  const rotateDescription =
    "The secret it replaces keeps signing beside the new one for 24 hours (one `v1=` each), then stops. Audited.";
  route(
    app,
    "POST /seller-webhooks/endpoints/:id/rotate",
    {
      ...dashboard,
      summary: "Make a new signing secret; the answer holds it, once",
      description: rotateDescription,
      config: writes,
    },
    async (request) => rotateSecret(deps, signedInUser(request), request.params.id),
  );
  route(
    app,
    "POST /seller/v1/webhooks/:id/rotate",
    {
      ...keyed,
      summary: "Make a new signing secret; the answer holds it, once",
      description: `Scope \`webhooks:write\`. ${rotateDescription}`,
    },
    async (request) => rotateSecret(deps, signedInUser(request), request.params.id),
  );

  const testDescription =
    "Sends a `ping` event to this endpoint now, even one turned off; one attempt, not retried. Answers the delivery as queued.";
  route(
    app,
    "POST /seller-webhooks/endpoints/:id/test",
    {
      ...dashboard,
      summary: "Send a test event to an endpoint",
      description: testDescription,
      config: writes,
    },
    async (request) => sendTestEvent(deps, signedInUser(request), request.params.id),
  );
  route(
    app,
    "POST /seller/v1/webhooks/:id/test",
    {
      ...keyed,
      summary: "Send a test event to an endpoint",
      description: `Scope \`webhooks:write\`. ${testDescription}`,
    },
    async (request) => sendTestEvent(deps, signedInUser(request), request.params.id),
  );

  const deliveriesSummary =
    "Your webhook deliveries, newest first, each with its payload and last attempt; `endpointId` keeps one endpoint's";
  route(
    app,
    "GET /seller-webhooks/deliveries",
    { ...dashboard, summary: deliveriesSummary },
    async (request) => listDeliveries(deps, signedInUser(request).id, request.query),
  );
  route(
    app,
    "GET /seller/v1/webhook-deliveries",
    { ...keyed, summary: deliveriesSummary, description: "Scope `webhooks:write`." },
    async (request) => listDeliveries(deps, signedInUser(request).id, request.query),
  );

  const replayDescription =
    "The same event, with the same id, posted again now; one attempt, not retried. Another seller's delivery answers 404.";
  route(
    app,
    "POST /seller-webhooks/deliveries/:id/replay",
    { ...dashboard, summary: "Replay a delivery", description: replayDescription, config: writes },
    async (request) => replayDelivery(deps, signedInUser(request), request.params.id),
  );
  route(
    app,
    "POST /seller/v1/webhook-deliveries/:id/replay",
    { ...keyed, summary: "Replay a delivery", description: `Scope \`webhooks:write\`. ${replayDescription}` },
    async (request) => replayDelivery(deps, signedInUser(request), request.params.id),
  );
};
