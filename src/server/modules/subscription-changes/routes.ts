import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { requireUser, signedInUser } from "#server/auth/guards";
import { route } from "#server/http/route";
import {
  changeDepsOf,
  commitSubscriptionChange,
  previewSubscriptionChange,
  restartSubscription,
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

  route(
    app,
    "POST /subscriptions/:id/restart",
    {
      tags: ["subscriptions"],
      summary: "Start an ended subscription again: the same plan and seats, at today's price",
      description:
        "Places the order checkout would (the billing details of the first order, the plan's price and tax today, no trial again). It is charged on the subscription's saved card or PayPal account when it has one; otherwise, or when that is declined, the answer sends the buyer to the payment page. Asking again for the same ended subscription answers the same order. A running subscription answers 409 SUBSCRIPTION_LIVE; a plan no longer offered, 404 PLAN_NOT_FOUND.",
      onRequest: requireUser,
      config: { rateLimit: { max: 10, timeWindow: "10 minutes" } },
    },
    async (request) =>
      restartSubscription(changeDepsOf(app), signedInUser(request).id, request.params.id, app.vatRegisters),
  );
};
