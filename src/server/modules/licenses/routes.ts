import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { LicenseCheckAnswer } from "#domain/license-schemas";
import { LICENSE_KEY_PATTERN, normaliseLicenseKey } from "#domain/licenses";
import { requireUser, signedInUser } from "#server/auth/guards";
import { route } from "#server/http/route";
import { findLicenseByKey, licensesOf, recordValidationDay } from "#server/modules/licenses/repository";

const unknownKey: LicenseCheckAnswer = { valid: false, status: "unknown", product: null, renewsAt: null };

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
      summary: "Check a license key: active, revoked or unknown, and for which product",
      description:
        "Public, for vendors' software; rate-limited per address. Case and surrounding spaces are ignored. A malformed key answers like an unknown one, and the answer never names the holder or the order.",
      config: { rateLimit: { max: 60, timeWindow: "1 minute" } },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      const key = normaliseLicenseKey(request.body.key);
      const found = LICENSE_KEY_PATTERN.test(key) ? await findLicenseByKey(db, key) : null;
      if (!found) return unknownKey;
      const active = found.status === "active";
      if (active) await recordValidationDay(db, found.id, app.clock.now());
      return {
        valid: active,
        status: active ? "active" : "revoked",
        product: found.productName,
        renewsAt: found.renewsAt?.toISOString() ?? null,
      } satisfies LicenseCheckAnswer;
    },
  );
};
