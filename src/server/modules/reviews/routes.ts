import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  reviewInputSchema,
  reviewListQuery,
  reviewListSchema,
  reviewModerationSchema,
  reviewReplySchema,
  reviewSchema,
} from "#domain/reviews";
import { currentUser, requireRole, requireUser, signedInUser } from "#server/auth/guards";
import {
  createReview,
  editReview,
  moderateReview,
  replyToReview,
  reportReview,
  reviewDepsOf,
  reviewsOfProduct,
} from "#server/modules/reviews/service";

const productParams = z.object({ id: z.uuid({ error: "Product not found" }) });
const reviewParams = z.object({ id: z.uuid({ error: "Review not found" }) });
const writes = { rateLimit: { max: 30, timeWindow: "1 minute" } };

/** Verified-buyer reviews on product pages: read by anyone, written by buyers, moderated by admins. */
export const reviewRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = () => reviewDepsOf(app);

  app.get(
    "/products/:id/reviews",
    {
      schema: {
        tags: ["reviews"],
        summary: "A product's published reviews, newest first, and what the visitor may do with them",
        params: productParams,
        querystring: reviewListQuery,
        response: { 200: reviewListSchema },
      },
    },
    async (request, reply) => {
      const me = await currentUser(request, reply);
      return reviewsOfProduct(deps(), me, request.params.id, request.query.page);
    },
  );

  app.post(
    "/products/:id/reviews",
    {
      onRequest: requireUser,
      config: writes,
      schema: {
        tags: ["reviews"],
        summary: "Review a product you paid for and received (once per product)",
        params: productParams,
        body: reviewInputSchema,
        response: { 201: reviewSchema },
      },
    },
    async (request, reply) => {
      const review = await createReview(deps(), signedInUser(request), request.params.id, request.body);
      return reply.code(201).send(review);
    },
  );

  app.patch(
    "/reviews/:id",
    {
      onRequest: requireUser,
      config: writes,
      schema: {
        tags: ["reviews"],
        summary: "Edit your review, within 30 days of writing it",
        params: reviewParams,
        body: reviewInputSchema,
        response: { 200: reviewSchema },
      },
    },
    async (request) => editReview(deps(), signedInUser(request), request.params.id, request.body),
  );

  app.post(
    "/reviews/:id/reply",
    {
      onRequest: requireUser,
      config: writes,
      schema: {
        tags: ["reviews"],
        summary: "The product's seller replies to a review, once",
        params: reviewParams,
        body: reviewReplySchema,
        response: { 200: reviewSchema },
      },
    },
    async (request) => replyToReview(deps(), signedInUser(request), request.params.id, request.body.text),
  );

  app.post(
    "/reviews/:id/report",
    {
      onRequest: requireUser,
      config: writes,
      schema: {
        tags: ["reviews"],
        summary: "Report a review to the admins (once per person)",
        params: reviewParams,
        response: { 204: z.null() },
      },
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
    app.post(
      `/admin/reviews/:id/${action}`,
      {
        onRequest: requireRole("admin"),
        schema: {
          tags: ["reviews"],
          summary: `${action === "hide" ? "Hide" : "Restore"} a review, with a reason the author is e-mailed`,
          params: reviewParams,
          body: reviewModerationSchema,
          response: { 200: reviewSchema },
        },
      },
      async (request) =>
        moderateReview(deps(), signedInUser(request), request.params.id, to, request.body.reason),
    );
  }
};
