import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { requireUser, signedInUser } from "#server/auth/guards";
import { route } from "#server/http/route";
import { sellerApiDepsOf, sellerKeyed } from "#server/modules/seller-api/service";
import {
  reportOne,
  reportUsage,
  sellerUsageSummary,
  setCap,
  usageDepsOf,
} from "#server/modules/usage/service";

/**
 * Metered use (decision 0029): sellers' systems report it with an API key holding `usage:write`; buyers
 * cap it per period on their renewal desk.
 */
export const usageRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = usageDepsOf(app);
  const keys = sellerApiDepsOf(app);
  const keyed = sellerKeyed(keys, "usage:write");

  route(
    app,
    "POST /seller/v1/usage",
    {
      ...keyed,
      summary: "Report one usage record of a metered subscription",
      description:
        "Scope `usage:write`. Name the subscription by `subscriptionId` or by a `licenseKey` of it. The same `idempotencyKey` again is the same record: answered `duplicate`, counted once. A negative `quantity` with a `reason` corrects earlier records. A record counts in the period its `usedAt` falls in; up to an hour after a period ends its use is still taken, later it is refused (409 `USAGE_TOO_LATE`).",
    },
    async (request) => reportOne(deps, signedInUser(request).id, request.body),
  );

  route(
    app,
    "POST /seller/v1/usage/batch",
    {
      ...keyed,
      summary: "Report up to 1,000 usage records at once; each is answered on its own",
      description:
        "Scope `usage:write`. Records are checked one by one, as `POST /seller/v1/usage` checks one: the answer lists each record's `recorded`, `duplicate` or `refused` (with its code and message), in the order sent. The accepted records are stored in one transaction.",
    },
    async (request) => reportUsage(deps, signedInUser(request).id, request.body.records),
  );

  route(
    app,
    "GET /seller/v1/subscriptions/:id/usage",
    {
      ...keyed,
      summary: "A metered subscription's current period: use so far, its cost, and the buyer's cap",
      description: "Scope `usage:write`. Another seller's subscription answers 404.",
    },
    async (request) => sellerUsageSummary(deps, signedInUser(request).id, request.params.id),
  );

  route(
    app,
    "PUT /subscriptions/:id/spending-cap",
    {
      tags: ["subscriptions"],
      summary: "Set or remove your spending cap on a metered subscription's use per period",
      description:
        "Alerts at 50%, 80% and 100% of the cap, once each per period; at the cap, license checks answer `over_cap` and the seller is told. Takes effect at once.",
      onRequest: requireUser,
      config: { rateLimit: { max: 30, timeWindow: "10 minutes" } },
    },
    async (request) => ({
      subscription: await setCap(deps, signedInUser(request).id, request.params.id, request.body),
    }),
  );
};
