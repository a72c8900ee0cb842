import type { FastifyPluginAsyncZod, ZodTypeProvider } from "fastify-type-provider-zod";
import {
  REFUND_MESSAGE_MAX,
  REFUND_MESSAGE_RATE_MAX,
  REFUND_MESSAGE_WINDOW_MS,
  type refundStatuses,
} from "#domain/refunds";
import { requireAnyRole, requireRole, requireUser, signedInUser } from "#server/auth/guards";
import { route } from "#server/http/route";
import { markTransferred, refundPayoutDepsOf, retryPayout } from "#server/modules/refunds/payouts";
import { listRefunds } from "#server/modules/refunds/repository";
import {
  decideRefund,
  postRefundMessage,
  refundThread,
  requestRefund,
} from "#server/modules/refunds/service";

/** Refunds: the buyer asks, the seller answers within 3 business days, the platform decides escalations. */
export const refundRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;

  app.register(async (scope) => {
    const own = scope.withTypeProvider<ZodTypeProvider>();

    route(
      own,
      "POST /orders/:orderId/items/:itemId/refund",
      {
        tags: ["refunds"],
        summary: "Ask for an item's refund, with a reason",
        description: `Only the order's buyer, on a confirmed order, within the refund window (REFUND_WINDOW_DAYS, ${app.env.REFUND_WINDOW_DAYS} days); once per item.`,
        onRequest: requireUser,
        config: { rateLimit: { max: 20, timeWindow: "10 minutes" } },
      },
      async (request, reply) => {
        const me = signedInUser(request);
        const { refund } = await requestRefund(
          db,
          app.jobs,
          me,
          request.params,
          request.body.reason,
          app.env.REFUND_WINDOW_DAYS,
        );
        return reply.status(201).send({
          refund: {
            id: refund.id,
            status: "requested" as const,
            sellerDueAt: refund.sellerDueAt.toISOString(),
          },
        });
      },
    );

    route(
      own,
      "GET /refunds/mine",
      {
        tags: ["refunds"],
        summary: "Your own refund requests as a buyer, newest first",
        onRequest: requireUser,
      },
      async (request) => listRefunds(db, { buyerId: signedInUser(request).id }, request.query.page),
    );

    route(
      own,
      "GET /refunds/:id/messages",
      {
        tags: ["refunds"],
        summary: "The messages on a refund request, oldest first",
        description: "For the request's buyer, the item's seller and admins; anyone else gets 404.",
        onRequest: requireUser,
      },
      async (request) => refundThread(db, signedInUser(request), request.params.id),
    );

    route(
      own,
      "POST /refunds/:id/messages",
      {
        tags: ["refunds"],
        summary: "Write on a refund request: offer a fix, explain, or answer",
        description: `Plain text up to ${REFUND_MESSAGE_MAX} characters, ${REFUND_MESSAGE_RATE_MAX} messages in ${REFUND_MESSAGE_WINDOW_MS / 60_000} minutes a person, while the request is open. The other parties are notified. Anyone but its buyer, the item's seller and admins gets 404.`,
        onRequest: requireUser,
        config: { rateLimit: { max: 30, timeWindow: "10 minutes" } },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(
            await postRefundMessage(
              db,
              app.jobs,
              signedInUser(request),
              request.params.id,
              request.body.body,
            ),
          ),
    );

    route(
      own,
      "POST /refunds/:id/decision",
      {
        tags: ["refunds"],
        summary: "Take the next step: the seller approves or rejects, the buyer escalates, an admin decides",
        description:
          "Who may take which step is decided on the server from the request: its buyer, the item's seller, or an admin for escalated requests. Anyone else gets 404.",
        onRequest: requireUser,
      },
      async (request) => {
        const me = signedInUser(request);
        const { refund } = await decideRefund(
          db,
          app.jobs,
          me,
          request.params.id,
          request.body.decision,
          request.body.note,
        );
        const status = refund.status as (typeof refundStatuses)[number];
        return { refund: { id: refund.id, status, sellerDueAt: refund.sellerDueAt.toISOString() } };
      },
    );
  });

  app.register(async (scope) => {
    const seller = scope.withTypeProvider<ZodTypeProvider>();
    route(
      seller,
      "GET /seller/refunds",
      {
        tags: ["refunds"],
        summary: "Refund requests for items you sold, newest first",
        onRequest: requireAnyRole("seller", "admin"),
      },
      async (request) => listRefunds(db, { sellerId: signedInUser(request).id }, request.query.page),
    );
  });

  app.register(async (scope) => {
    const admin = scope.withTypeProvider<ZodTypeProvider>();
    route(
      admin,
      "GET /admin/refunds",
      {
        tags: ["admin"],
        summary: "Every refund request, newest first, optionally of one status or payout state",
        onRequest: requireRole("admin"),
      },
      async (request) =>
        listRefunds(db, { status: request.query.status, payout: request.query.payout }, request.query.page),
    );

    route(
      admin,
      "POST /admin/refunds/:id/payout/retry",
      {
        tags: ["admin"],
        summary: "Send a refund the provider refused to the provider again",
        description:
          "Only for a refund whose payout failed: it goes back to pending and the provider is asked again (a new round of the same refund, so a refund the provider made is never made twice). Audited.",
        onRequest: requireRole("admin"),
        config: { rateLimit: { max: 30, timeWindow: "1 minute" } },
      },
      async (request) => ({
        payout: await retryPayout(refundPayoutDepsOf(app), signedInUser(request), request.params.id),
      }),
    );
    route(
      admin,
      "POST /admin/refunds/:id/payout/transferred",
      {
        tags: ["admin"],
        summary: "Record the bank transfer made for a refund no provider can pay back",
        description:
          "Only for a payout awaiting a transfer (the order was not paid through a card or PayPal provider): records the bank's reference and the date, completes the payout and e-mails the buyer. Audited.",
        onRequest: requireRole("admin"),
        config: { rateLimit: { max: 30, timeWindow: "1 minute" } },
      },
      async (request) => ({
        payout: await markTransferred(
          refundPayoutDepsOf(app),
          signedInUser(request),
          request.params.id,
          request.body,
        ),
      }),
    );
  });
};
