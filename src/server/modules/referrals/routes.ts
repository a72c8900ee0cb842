import type { FastifyPluginAsyncZod, ZodTypeProvider } from "fastify-type-provider-zod";
import { currentUser, requireRole, signedInUser } from "#server/auth/guards";
import { publicUrl } from "#server/env";
import { route } from "#server/http/route";
import { writeReferral } from "#server/modules/referrals/cookie";
import {
  decideCommission,
  listCommissionsForReview,
  recordVisit,
  resellerLinks,
} from "#server/modules/referrals/service";

/** Reseller links: the public visit a link's product page reports, and the reseller's own figures. */
export const referralRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const secret = app.env.AUTH_SECRET;
  if (!secret) throw new Error("AUTH_SECRET must be set before the app is built");

  route(
    app,
    "POST /referrals/visit",
    {
      tags: ["referrals"],
      summary: "Report a visit through a reseller link; counts a click and sets the attribution cookie",
      description:
        "A click counts at most once per visitor, product and day; bots and the reseller's own visits are not counted. Every valid visit (re)sets the signed 30-day attribution cookie: the last link followed wins.",
      config: { rateLimit: { max: 120, timeWindow: "10 minutes" } },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      // The money clock: the attribution a click starts is judged by it at the sale.
      const now = app.clock.now();
      const viewer = await currentUser(request);
      const outcome = await recordVisit(db, {
        ...request.body,
        viewerId: viewer?.id ?? null,
        ip: request.ip,
        userAgent: request.headers["user-agent"],
        secret,
        now,
      });
      if (outcome.attribute)
        writeReferral(request, reply, { resellerId: outcome.resellerId, clickedAt: now });
      return { counted: outcome.counted };
    },
  );

  app.register(async (scope) => {
    const reseller = scope.withTypeProvider<ZodTypeProvider>();

    route(
      reseller,
      "GET /reseller/links",
      {
        tags: ["referrals"],
        summary: "Your reseller links with clicks, orders and commission per product and in total",
        description:
          "A page of the links by product name (search by name or category). Creates your reseller code on first use. Commission is pending during the refund window, then approved; a refund cancels it. Amounts are in USD.",
        onRequest: requireRole("reseller"),
      },
      async (request) =>
        resellerLinks(
          db,
          signedInUser(request).id,
          publicUrl(app.env),
          app.env.REFUND_WINDOW_DAYS,
          request.query,
        ),
    );
  });

  app.register(async (scope) => {
    const admin = scope.withTypeProvider<ZodTypeProvider>();

    route(
      admin,
      "GET /admin/commissions",
      {
        tags: ["admin"],
        summary: "Commissions of one status for review, newest first: held ones by default",
        description:
          "A commission is held when the order looks like the reseller's own purchase from a second account; each carries the reasons.",
        onRequest: requireRole("admin"),
      },
      async (request) => listCommissionsForReview(db, request.query.status, request.query.page),
    );

    route(
      admin,
      "POST /admin/commissions/:id/decision",
      {
        tags: ["admin"],
        summary: "Release a held commission (pending until the refund window ends) or reject it",
        description:
          "Release makes it pending: the next settlement approves it once the refund window after the order has passed. Reject cancels it. 409 when it is not held.",
        onRequest: requireRole("admin"),
      },
      async (request) => {
        const commission = await decideCommission(
          db,
          signedInUser(request),
          request.params.id,
          request.body.decision,
          request.body.note,
        );
        return { commission };
      },
    );
  });
};
