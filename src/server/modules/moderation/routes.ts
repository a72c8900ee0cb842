import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  featuredAdminListSchema,
  featuredHomeSchema,
  featuredSelectionSchema,
  moderationDecisionSchema,
  moderationQueueQuery,
  moderationQueueSchema,
  rejectListingSchema,
  trustedSellerAnswerSchema,
  trustedSellerSchema,
} from "#domain/moderation";
import { requireRole, signedInUser } from "#server/auth/guards";
import { answerFromCache } from "#server/modules/catalog/cached";
import { listPending } from "#server/modules/moderation/repository";
import {
  chooseFeatured,
  decide,
  featuredForAdmin,
  featuredForHome,
  setTrusted,
} from "#server/modules/moderation/service";

const idParams = z.object({ id: z.uuid("Unknown product") });
const userParams = z.object({ id: z.string().min(1).max(64) });

/**
 * Listing moderation and the home page's Featured Products (decision 0013): admins approve or reject
 * sellers' listings, mark sellers trusted and choose the featured products; the public reads the
 * featured list.
 */
export const moderationRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const admin = requireRole("admin");

  app.get(
    "/featured-products",
    {
      schema: {
        tags: ["catalogue"],
        summary: "The home page's Featured Products: the admins' choice, else the first active products",
        response: { 200: featuredHomeSchema },
      },
    },
    // Public and on every home page load: from the catalogue cache (decision 0018).
    async (request, reply) =>
      answerFromCache(request, reply, "featured-products", featuredHomeSchema, () => featuredForHome(app)),
  );

  app.get(
    "/admin/moderation",
    {
      onRequest: admin,
      schema: {
        tags: ["moderation"],
        summary: "Listings waiting for review, oldest first",
        querystring: moderationQueueQuery,
        response: { 200: moderationQueueSchema },
      },
    },
    async (request) => listPending(db, request.query.page),
  );

  app.post(
    "/admin/moderation/:id/approve",
    {
      onRequest: admin,
      schema: {
        tags: ["moderation"],
        summary: "Approve a listing: it becomes public (if active)",
        params: idParams,
        response: { 200: moderationDecisionSchema },
      },
    },
    async (request) => {
      const me = signedInUser(request);
      const result = await decide(app, me, request.params.id, { status: "approved" });
      request.log.info({ productId: request.params.id, by: me.id }, "listing approved");
      return result;
    },
  );

  app.post(
    "/admin/moderation/:id/reject",
    {
      onRequest: admin,
      schema: {
        tags: ["moderation"],
        summary: "Reject a listing with a reason the seller sees and is e-mailed",
        params: idParams,
        body: rejectListingSchema,
        response: { 200: moderationDecisionSchema },
      },
    },
    async (request) => {
      const me = signedInUser(request);
      const result = await decide(app, me, request.params.id, {
        status: "rejected",
        reason: request.body.reason,
      });
      request.log.info({ productId: request.params.id, by: me.id }, "listing rejected");
      return result;
    },
  );

  app.put(
    "/admin/users/:id/trusted-seller",
    {
      onRequest: admin,
      schema: {
        tags: ["moderation"],
        summary: "Mark a seller trusted (listings public without review) or not",
        params: userParams,
        body: trustedSellerSchema,
        response: { 200: trustedSellerAnswerSchema },
      },
    },
    async (request) => {
      const me = signedInUser(request);
      const result = await setTrusted(app, me, request.params.id, request.body.trusted);
      request.log.info(
        { userId: request.params.id, by: me.id, trusted: result.isTrustedSeller },
        "seller trust set",
      );
      return result;
    },
  );

  app.get(
    "/admin/featured-products",
    {
      onRequest: admin,
      schema: {
        tags: ["moderation"],
        summary: "The chosen Featured Products in their order",
        response: { 200: featuredAdminListSchema },
      },
    },
    async () => featuredForAdmin(app),
  );

  app.put(
    "/admin/featured-products",
    {
      onRequest: admin,
      schema: {
        tags: ["moderation"],
        summary: "Replace the chosen Featured Products and their order (empty: the default)",
        body: featuredSelectionSchema,
        response: { 200: featuredAdminListSchema },
      },
    },
    async (request) => {
      const me = signedInUser(request);
      const result = await chooseFeatured(app, me, request.body.productIds);
      request.log.info({ by: me.id, count: result.items.length }, "featured products chosen");
      return result;
    },
  );
};
