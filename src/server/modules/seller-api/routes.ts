import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { requireRole, signedInUser } from "#server/auth/guards";
import { route } from "#server/http/route";
import { receivedOrdersPage } from "#server/modules/earnings/service";
import {
  deactivateSellerActivation,
  licenseDepsOf,
  sellerLicenseOf,
  sellerLicensesPage,
  setLicenseSuspended,
} from "#server/modules/licenses/service";
import {
  callingKey,
  createKey,
  listCalls,
  listKeys,
  type requireSellerKey,
  revokeKey,
  rollKey,
  sellerApiDepsOf,
  sellerKeyed,
  whoAmI,
} from "#server/modules/seller-api/service";
import { webhookOperationDocs as hooks } from "#server/modules/seller-webhooks/routes";
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
import { sellerSubscriptionReport } from "#server/modules/subscription-reports/service";

/**
 * The seller API (decision 0028): a seller's keys and access log on the dashboard (signed in), and the
 * operations their own systems call with a key (`/api/seller/v1/…`, `Authorization: Bearer sbk_…`).
 */
export const sellerApiRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = sellerApiDepsOf(app);
  const licenses = licenseDepsOf(app);
  const seller = requireRole("seller");

  route(
    app,
    "GET /seller-api/keys",
    {
      tags: ["seller-api-keys"],
      summary: "Your API keys, live ones first; never their secrets",
      onRequest: seller,
    },
    async (request) => listKeys(deps, signedInUser(request).id),
  );

  route(
    app,
    "POST /seller-api/keys",
    {
      tags: ["seller-api-keys"],
      summary: "Make an API key with a name and scopes; the answer holds its whole secret, once",
      description:
        "Stackbay keeps only the key's SHA-256. At most 10 live keys (409 `API_KEY_LIMIT`). Audited.",
      onRequest: seller,
      config: { rateLimit: { max: 20, timeWindow: "10 minutes" } },
    },
    async (request) => createKey(deps, signedInUser(request), request.body),
  );

  route(
    app,
    "POST /seller-api/keys/:id/roll",
    {
      tags: ["seller-api-keys"],
      summary:
        "Replace a key's secret: the old one stops working at once; the answer holds the new one, once",
      description: "Same name, prefix and scopes. Another seller's key answers 404. Audited.",
      onRequest: seller,
      config: { rateLimit: { max: 20, timeWindow: "10 minutes" } },
    },
    async (request) => rollKey(deps, signedInUser(request), request.params.id),
  );

  route(
    app,
    "DELETE /seller-api/keys/:id",
    {
      tags: ["seller-api-keys"],
      summary: "Revoke a key for good; answers your keys",
      description: "Revoking a revoked key changes nothing. Another seller's key answers 404. Audited.",
      onRequest: seller,
    },
    async (request) => revokeKey(deps, signedInUser(request), request.params.id),
  );

  route(
    app,
    "GET /seller-api/calls",
    {
      tags: ["seller-api-keys"],
      summary: "Your seller API access log, newest first: time, key, operation and status (never contents)",
      onRequest: seller,
    },
    async (request) => listCalls(deps, signedInUser(request).id, request.query.page),
  );

  // The API itself: each call with a key, rate-limited per key and written to its seller's access log.
  const keyed = (scope: Parameters<typeof requireSellerKey>[1]) => sellerKeyed(deps, scope);

  route(
    app,
    "GET /seller/v1/key",
    {
      ...keyed(null),
      summary: "The key this call was made with (name, prefix, scopes) and its seller",
      description: "Needs no scope: a quick check that a key works.",
    },
    async (request) => whoAmI(deps, callingKey(request)),
  );

  route(
    app,
    "GET /seller/v1/orders",
    {
      ...keyed("orders:read"),
      summary: "The paid orders you received, newest first, with only your own items in each",
      description:
        "Scope `orders:read`. The orders whose sale is booked; each names the buyer (company, else billing name) and carries only your items, their refund and shipping state, and their total in USD before fees.",
    },
    async (request) => receivedOrdersPage(deps.db, signedInUser(request), request.query.page),
  );

  route(
    app,
    "GET /seller/v1/subscriptions",
    {
      ...keyed("subscriptions:read"),
      summary:
        "Your products' subscriptions: counts, MRR, this month's movement, past-due renewals and the live list",
      description:
        "Scope `subscriptions:read`. The same report as the dashboard's Recurring revenue: amounts in USD, buyers by first name only. `page` pages the live list, `duePage` the past-due renewals.",
    },
    async (request) =>
      sellerSubscriptionReport(deps.db, signedInUser(request).id, request.query, app.clock.now()),
  );

  route(
    app,
    "GET /seller/v1/licenses",
    {
      ...keyed("licenses:write"),
      summary: "The license keys of your products, newest first, with their seats in use",
      description:
        "Scope `licenses:write`. Each key with its product, order, status (`active`, `suspended` or `revoked`), seats and how many machines it is activated on.",
    },
    async (request) => sellerLicensesPage(licenses, signedInUser(request).id, request.query.page),
  );

  route(
    app,
    "GET /seller/v1/licenses/:id",
    {
      ...keyed("licenses:write"),
      summary: "One license key of your products with the machines it is activated on",
      description: "Scope `licenses:write`. Another seller's license answers 404.",
    },
    async (request) => sellerLicenseOf(licenses, signedInUser(request).id, request.params.id),
  );

  route(
    app,
    "POST /seller/v1/licenses/:id/suspend",
    {
      ...keyed("licenses:write"),
      summary: "Suspend a license key: checks answer `suspended`, and it cannot be activated meanwhile",
      description:
        "Scope `licenses:write`. Its activations stay. Suspending a suspended key changes nothing; a revoked key answers 409 `LICENSE_REVOKED`; another seller's license 404. Audited.",
    },
    async (request) => setLicenseSuspended(licenses, signedInUser(request), request.params.id, true),
  );

  route(
    app,
    "POST /seller/v1/licenses/:id/reinstate",
    {
      ...keyed("licenses:write"),
      summary: "Reinstate a suspended license key",
      description:
        "Scope `licenses:write`. Reinstating an active key changes nothing; a revoked key answers 409 `LICENSE_REVOKED`; another seller's license 404. Audited.",
    },
    async (request) => setLicenseSuspended(licenses, signedInUser(request), request.params.id, false),
  );

  route(
    app,
    "DELETE /seller/v1/licenses/:id/activations/:activationId",
    {
      ...keyed("licenses:write"),
      summary: "Deactivate a license key on a machine, freeing its seat; answers the license",
      description: "Scope `licenses:write`. Another seller's license answers 404.",
    },
    async (request) =>
      deactivateSellerActivation(
        licenses,
        signedInUser(request).id,
        request.params.id,
        request.params.activationId,
      ),
  );

  // Webhooks (decision 0030): the dashboard's operations, with a key holding `webhooks:write`.
  const webhooks = sellerWebhookDepsOf(app);
  const writer = keyed("webhooks:write");
  const scoped = (doc: { summary: string; description?: string }) => ({
    ...writer,
    summary: doc.summary,
    description: ["Scope `webhooks:write`.", doc.description].filter(Boolean).join(" "),
  });
  route(app, "GET /seller/v1/webhooks", scoped(hooks.list), async (request) =>
    listEndpoints(webhooks, signedInUser(request).id),
  );
  route(app, "POST /seller/v1/webhooks", scoped(hooks.create), async (request) =>
    createEndpoint(webhooks, signedInUser(request), request.body),
  );
  route(app, "PATCH /seller/v1/webhooks/:id", scoped(hooks.update), async (request) =>
    changeEndpoint(webhooks, signedInUser(request), request.params.id, request.body),
  );
  route(app, "DELETE /seller/v1/webhooks/:id", scoped(hooks.remove), async (request) =>
    removeEndpoint(webhooks, signedInUser(request), request.params.id),
  );
  route(app, "POST /seller/v1/webhooks/:id/rotate", scoped(hooks.rotate), async (request) =>
    rotateSecret(webhooks, signedInUser(request), request.params.id),
  );
  route(app, "POST /seller/v1/webhooks/:id/test", scoped(hooks.test), async (request) =>
    sendTestEvent(webhooks, signedInUser(request), request.params.id),
  );
  route(app, "GET /seller/v1/webhook-deliveries", scoped(hooks.deliveries), async (request) =>
    listDeliveries(webhooks, signedInUser(request).id, request.query),
  );
  route(app, "POST /seller/v1/webhook-deliveries/:id/replay", scoped(hooks.replay), async (request) =>
    replayDelivery(webhooks, signedInUser(request), request.params.id),
  );
};
