import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { requireUser, signedInUser } from "#server/auth/guards";
import { route } from "#server/http/route";
import {
  changeDepsOf,
  commitSubscriptionChange,
  previewSubscriptionChange,
} from "#server/modules/subscription-changes/service";

/**
 * Changing a subscription's plan or seats from the renewal desk: a preview of exactly what it costs,
 * then a commit of that preview (decision 0027).
 */
export const subscriptionChangeRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;

  route(
    app,
    "POST /subscriptions/:id/change/preview",
    {
      tags: ["subscriptions"],
      summary: "What changing plan or seats would cost now, before anything changes",
      description:
        "Answers the credit for the unused part of the period, the charge for the new terms and what is due now with tax (whole cents), when the new terms start and what the next renewal costs, with a token to commit it by. A dearer plan or more seats is charged now for the rest of the period; monthly to yearly starts a year now; anything else waits for the period's end, with no refund. During a trial a change is free and immediate.",
      onRequest: requireUser,
      config: { rateLimit: { max: 60, timeWindow: "10 minutes" } },
    },
    async (request) =>
      previewSubscriptionChange(
        db,
        signedInUser(request).id,
        request.params.id,
        request.body,
        app.clock.now(),
      ),
  );

  route(
    app,
    "POST /subscriptions/:id/change",
    {
      tags: ["subscriptions"],
      summary: "Commit a previewed change of plan or seats",
      description:
        "Takes the preview's plan, seats, `pricedAt` and `token`. The change is priced again at that moment; anything different (a renewal, a payment, another change, a new plan price) or a preview older than 15 minutes answers 409 `PREVIEW_STALE`. An amount due makes an order to pay (`change.orderId`), whose payment applies the change.",
      onRequest: requireUser,
      config: { rateLimit: { max: 20, timeWindow: "10 minutes" } },
    },
    async (request) =>
      commitSubscriptionChange(
        changeDepsOf(app),
        signedInUser(request).id,
        request.params.id,
        request.body,
        app.clock.now(),
      ),
  );
};
