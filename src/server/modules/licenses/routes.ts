import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { LICENSE_CHECKS_PER_MINUTE } from "#domain/license-schemas";
import { requireUser, signedInUser } from "#server/auth/guards";
import { route } from "#server/http/route";
import { licensesOf } from "#server/modules/licenses/repository";
import { checkLicense } from "#server/modules/licenses/service";

/** The buyer's license keys, and the public check vendors' software calls with a key. */
export const licenseRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;

  route(
    app,
    "GET /licenses",
    {
      tags: ["licenses"],
      summary: "Your license keys, newest first",
      onRequest: requireUser,
    },
    async (request) => {
      return { items: await licensesOf(db, signedInUser(request).id) };
    },
  );

  route(
    app,
    "POST /licenses/validate",
    {
      tags: ["licenses"],
      summary:
        "Check a license key: active, trialing, past_due, expired, revoked or unknown, and for which product",
      description:
        "Public, for vendors' software; rate-limited per address. A subscription's key reads as its subscription does now: `trialing` in its free trial, `past_due` while its renewal is unpaid (still valid: the retries' grace), `expired` once it ended. `valid` is true for active, trialing and past_due. Case and surrounding spaces are ignored. A malformed key answers like an unknown one, and the answer never names the holder or the order.",
      config: { rateLimit: { max: LICENSE_CHECKS_PER_MINUTE, timeWindow: "1 minute" } },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return checkLicense(db, request.body.key, app.clock.now());
    },
  );
};
