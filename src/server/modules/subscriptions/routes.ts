import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { requireUser, signedInUser } from "#server/auth/guards";
import { route } from "#server/http/route";
import { setRenewal, subscriptionsOf } from "#server/modules/subscriptions/service";

/** The buyer's renewal desk: their subscriptions, and cancelling one at its period's end (or undoing that). */
export const subscriptionRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;

  route(
    app,
    "GET /subscriptions",
    {
      tags: ["subscriptions"],
      summary: "Your subscriptions, newest first, with their next renewal and licence keys",
      onRequest: requireUser,
    },
    async (request) => ({ items: await subscriptionsOf(db, signedInUser(request).id, app.clock.now()) }),
  );

  route(
    app,
    "POST /subscriptions/:id/cancel",
    {
      tags: ["subscriptions"],
      summary: "Stop renewing: the subscription ends when its paid period does",
      description:
        "Nothing is refunded and the licences keep working until the end of the period paid for. Someone else's subscription answers 404; an ended one 409.",
      onRequest: requireUser,
      config: { rateLimit: { max: 30, timeWindow: "10 minutes" } },
    },
    async (request) => ({
      subscription: await setRenewal(db, signedInUser(request).id, request.params.id, true, app.clock.now()),
    }),
  );

  route(
    app,
    "POST /subscriptions/:id/resume",
    {
      tags: ["subscriptions"],
      summary: "Undo a cancellation before the period ends: the subscription renews again",
      onRequest: requireUser,
      config: { rateLimit: { max: 30, timeWindow: "10 minutes" } },
    },
    async (request) => ({
      subscription: await setRenewal(db, signedInUser(request).id, request.params.id, false, app.clock.now()),
    }),
  );
};
