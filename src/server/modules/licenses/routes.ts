import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { LICENSE_CHECKS_PER_MINUTE } from "#domain/license-schemas";
import { requireUser, signedInUser } from "#server/auth/guards";
import { route } from "#server/http/route";
import { licensesOf } from "#server/modules/licenses/repository";
import {
  activateLicense,
  checkLicense,
  deactivateMachine,
  deactivateOwnActivation,
  licenseDepsOf,
  licenseFile,
} from "#server/modules/licenses/service";

/** The public calls vendors' software makes with a key share the check's limit per address. */
const perAddress = { rateLimit: { max: LICENSE_CHECKS_PER_MINUTE, timeWindow: "1 minute" } };

/** The buyer's license keys, and the public calls vendors' software makes with a key. */
export const licenseRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const deps = licenseDepsOf(app);

  route(
    app,
    "GET /licenses",
    {
      tags: ["licenses"],
      summary: "Your license keys, newest first, each with its seats and the machines it is activated on",
      onRequest: requireUser,
    },
    async (request) => {
      return { items: await licensesOf(db, signedInUser(request).id) };
    },
  );

  route(
    app,
    "DELETE /licenses/:id/activations/:activationId",
    {
      tags: ["licenses"],
      summary: "Deactivate one of your licenses on a machine, freeing its seat; answers the license",
      description: "Another buyer's license answers 404.",
      onRequest: requireUser,
    },
    async (request) =>
      deactivateOwnActivation(deps, signedInUser(request).id, request.params.id, request.params.activationId),
  );

  route(
    app,
    "GET /licenses/:id/file",
    {
      tags: ["licenses"],
      summary: "Download your license as a signed offline license file",
      description:
        "A JSON file: `payload` (JSON text: the license, its product, seats, status, and `expiresAt`, null for a perpetual license) and its Ed25519 `signature` (base64) over the payload's exact bytes, made with the platform key `kid` published at /.well-known/stackbay-license-keys.json. A subscription's file expires at the end of its paid period plus the grace an unpaid renewal gets. A revoked, suspended or ended license has none (409 `LICENSE_NOT_VALID`); another buyer's license answers 404.",
      onRequest: requireUser,
    },
    async (request, reply) => {
      const file = await licenseFile(deps, signedInUser(request).id, request.params.id);
      const key = JSON.parse(file.payload).key as string;
      reply
        .header("cache-control", "no-store")
        .header("content-disposition", `attachment; filename="stackbay-license-${key}.json"`);
      return file;
    },
  );

  route(
    app,
    "POST /licenses/validate",
    {
      tags: ["licenses"],
      summary:
        "Check a license key: active, trialing, past_due, suspended, over_cap, expired, revoked or unknown, and for which product",
      description:
        "Public, for vendors' software; rate-limited per address. A subscription's key reads as its subscription does now: `trialing` in its free trial, `past_due` while its renewal is unpaid (still valid: the retries' grace), `expired` once it ended; `suspended` while its seller suspends it. `valid` is true for active, trialing and past_due. With `machine`, `activated` says whether that machine is activated, and the check is recorded as the machine's last check-in. Case and surrounding spaces are ignored. A malformed key answers like an unknown one, and the answer never names the holder or the order.",
      // What a check writes (a validation day, a machine's check-in) changes no cached state.
      config: { ...perAddress, changesCachedState: false },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return checkLicense(db, request.body, app.clock.now(), app.licenseCheckCache);
    },
  );

  route(
    app,
    "POST /licenses/activate",
    {
      tags: ["licenses"],
      summary: "Activate a license key on a machine, taking one of its seats",
      description:
        "Public, for vendors' software; rate-limited per address. `machine` is an identifier your software chooses (1–200 characters), `label` a name people recognise. Activating a machine that is already activated only refreshes its label and last check-in and takes no new seat. A key that is not valid answers 409 `LICENSE_NOT_VALID`; one whose seats are all in use answers 409 `LICENSE_SEATS_FULL`; an unknown or malformed key 404 `LICENSE_NOT_FOUND`.",
      config: perAddress,
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return activateLicense(deps, request.body);
    },
  );

  route(
    app,
    "POST /licenses/deactivate",
    {
      tags: ["licenses"],
      summary: "Deactivate a license key on a machine, freeing its seat",
      description:
        "Public, for vendors' software; rate-limited per address. Works whatever the license's state. A machine that is not activated answers 404 `LICENSE_ACTIVATION_NOT_FOUND`.",
      config: perAddress,
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return deactivateMachine(deps, request.body);
    },
  );
};

/** The platform's public licence-signing key, at the site's root where verifiers look for it. */
export const licenseKeyRoutes: FastifyPluginAsyncZod = async (app) => {
  route(
    app,
    "GET /.well-known/stackbay-license-keys.json",
    { summary: "The public keys that verify offline license files (a JWK set of Ed25519 keys)", hide: true },
    async (_request, reply) => {
      reply.header("cache-control", "public, max-age=3600").header("access-control-allow-origin", "*");
      return app.licenseSigner.keySet;
    },
  );
};
