import type { FastifyPluginAsyncZod, ZodTypeProvider } from "fastify-type-provider-zod";
import {
  type LicenseCheckAnswer,
  licenseCheckAnswerSchema,
  licenseCheckSchema,
  licenseListSchema,
} from "#domain/license-schemas";
import { LICENSE_KEY_PATTERN, normaliseLicenseKey } from "#domain/licenses";
import { requireUser, signedInUser } from "#server/auth/guards";
import { findLicenseByKey, licensesOf, recordValidationDay } from "#server/modules/licenses/repository";

const unknownKey: LicenseCheckAnswer = { valid: false, status: "unknown", product: null, renewsAt: null };

/** The buyer's license keys, and the public check vendors' software calls with a key. */
export const licenseRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;

  app.register(async (scope) => {
    const own = scope.withTypeProvider<ZodTypeProvider>();
    own.addHook("onRequest", requireUser);
    own.get(
      "/licenses",
      {
        schema: {
          tags: ["licenses"],
          summary: "Your license keys, newest first",
          response: { 200: licenseListSchema },
        },
      },
      async (request) => {
        return { items: await licensesOf(db, signedInUser(request).id) };
      },
    );
  });

  app.post(
    "/licenses/validate",
    {
      config: { rateLimit: { max: 60, timeWindow: "1 minute" } },
      schema: {
        tags: ["licenses"],
        summary: "Check a license key: active, revoked or unknown, and for which product",
        description:
          "Public, for vendors' software; rate-limited per address. Case and surrounding spaces are ignored. A malformed key answers like an unknown one, and the answer never names the holder or the order.",
        body: licenseCheckSchema,
        response: { 200: licenseCheckAnswerSchema },
      },
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
