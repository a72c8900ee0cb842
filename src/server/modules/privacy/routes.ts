import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { absoluteUrl, paths } from "#domain/routes";
import { authHeaders, requireUser, signedInUser } from "#server/auth/guards";
import { publicUrl } from "#server/env";
import { ValidationError } from "#server/errors";
import { route } from "#server/http/route";
import { deleteAccount, exportAccount } from "#server/modules/privacy/service";

/**
 * The person's control over their own account (decision 0016): a copy of everything we hold, and
 * deletion. Both act only on the session's own user; neither takes an id.
 */
export const privacyRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;

  route(
    app,
    "GET /me/export",
    {
      tags: ["accounts"],
      summary: "Download my data: everything Stackbay holds about your account, as a JSON file",
      description:
        "License keys and the payout method are masked; password hashes, two-factor secrets, bank details and session tokens are never included.",
      onRequest: requireUser,
      // A full read of the account: generous for a person, useless for scraping.
      config: { rateLimit: { max: 5, timeWindow: "1 hour" } },
    },
    async (request, reply) => {
      const data = await exportAccount(db, signedInUser(request));
      const day = data.exportedAt.slice(0, 10);
      reply.header("content-disposition", `attachment; filename="stackbay-my-data-${day}.json"`);
      return data;
    },
  );

  route(
    app,
    "DELETE /me",
    {
      tags: ["accounts"],
      summary: "Delete your account (password, and the authenticator code when two-factor is on)",
      description:
        "Refused with 409 ACCOUNT_DELETION_BLOCKED (`details.reason`) while an order awaits payment, a refund is open, a shipment is undelivered, or an earnings balance or payout is outstanding. Signs you out.",
      onRequest: requireUser,
      config: { rateLimit: { max: 10, timeWindow: "10 minutes" } },
    },
    async (request, reply) => {
      const me = signedInUser(request);
      const headers = authHeaders(request);
      await app.auth.api.verifyPassword({ body: { password: request.body.password }, headers });
      if (me.twoFactorEnabled) {
        const { code } = request.body;
        if (!code)
          throw new ValidationError("Enter the 6-digit code from your app.", [
            { path: ["code"], message: "Enter the 6-digit code from your app." },
          ]);
        await app.auth.api.verifyTOTP({ body: { code }, headers });
      }
      await deleteAccount(db, me, {
        mailer: app.mailer,
        deskUrl: absoluteUrl(publicUrl(app.env), paths.dashboard("subscriptions")),
        jobs: app.jobs,
      });
      // The sessions are gone from the database; the browser forgets its cookies too.
      const { authCookies } = await app.auth.$context;
      for (const cookie of [authCookies.sessionToken, authCookies.sessionData, authCookies.dontRememberToken])
        reply.clearCookie(cookie.name, { path: "/" });
      return reply.status(204).send(null);
    },
  );
};
