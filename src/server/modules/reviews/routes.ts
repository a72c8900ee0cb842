import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { currentUser, requireRole, requireUser, signedInUser } from "#server/auth/guards";
import { route } from "#server/http/route";
import {
  createReview,
  editReview,
  moderateReview,
  replyToReview,
  reportReview,
  reviewDepsOf,
  reviewsOfProduct,
} from "#server/modules/reviews/service";

const writes = { rateLimit: { max: 30, timeWindow: "1 minute" } };

/** Verified-buyer reviews on product pages: read by anyone, written by buyers, moderated by admins. */
export const reviewRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = () => reviewDepsOf(app);

  route(
    app,
    "GET /products/:id/reviews",
    {
      tags: ["reviews"],
      summary: "A product's published reviews, newest first, and what the visitor may do with them",
    },
    async (request, reply) => {
      const me = await currentUser(request, reply);
      return reviewsOfProduct(deps(), me, request.params.id, request.query.page);
    },
  );

  route(
    app,
    "POST /products/:id/reviews",
    {
      tags: ["reviews"],
      summary: "Review a product you paid for and received (once per product)",
      onRequest: requireUser,
      config: writes,
    },
    async (request, reply) => {
      const review = await createReview(deps(), signedInUser(request), request.params.id, request.body);
      return reply.code(201).send(review);
    },
  );

  route(
    app,
    "PATCH /reviews/:id",
    {
      tags: ["reviews"],
      summary: "Edit your review, within 30 days of writing it",
      onRequest: requireUser,
      config: writes,
    },
    async (request) => editReview(deps(), signedInUser(request), request.params.id, request.body),
  );

  route(
    app,
    "POST /reviews/:id/reply",
    {
      tags: ["reviews"],
      summary: "The product's seller replies to a review, once",
      onRequest: requireUser,
      config: writes,
    },
    async (request) => replyToReview(deps(), signedInUser(request), request.params.id, request.body.text),
  );

  route(
    app,
    "POST /reviews/:id/report",
    {
      tags: ["reviews"],
      summary: "Report a review to the admins (once per person)",
      onRequest: requireUser,
      config: writes,
    },
    async (request, reply) => {
      await reportReview(deps(), signedInUser(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  for (const [action, to] of [
    ["hide", "hidden"],
    ["restore", "published"],
  ] as const) {
    route(
      app,
      `POST /admin/reviews/:id/${action}`,
      {
        tags: ["reviews"],
        summary: `${action === "hide" ? "Hide" : "Restore"} a review, with a reason the author is e-mailed`,
        onRequest: requireRole("admin"),
      },
      async (request) =>
        moderateReview(deps(), signedInUser(request), request.params.id, to, request.body.reason),
    );
  }
};
