import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { featuredHomeSchema } from "#domain/moderation";
import { requireRole, signedInUser } from "#server/auth/guards";
import { route } from "#server/http/route";
import { answerFromCache } from "#server/modules/catalog/cached";
import { listPending } from "#server/modules/moderation/repository";
import {
  chooseFeatured,
  decide,
  featuredForAdmin,
  featuredForHome,
  setTrusted,
} from "#server/modules/moderation/service";

/**
 * Listing moderation and the home page's Featured Products (decision 0013): admins approve or reject
 * sellers' listings, mark sellers trusted and choose the featured products; the public reads the
 * featured list.
 */
export const moderationRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const admin = requireRole("admin");

  route(
    app,
    "GET /featured-products",
    {
      tags: ["catalogue"],
      summary: "The home page's Featured Products: the admins' choice, else the first active products",
    }, // Public and on every home page load: from the catalogue cache (decision 0018).
    async (request, reply) =>
      answerFromCache(request, reply, "featured-products", featuredHomeSchema, () => featuredForHome(app)),
  );

  route(
    app,
    "GET /admin/moderation",
    {
      tags: ["moderation"],
      summary: "Listings waiting for review, oldest first",
      onRequest: admin,
    },
    async (request) => listPending(db, request.query.page),
  );

  route(
    app,
    "POST /admin/moderation/:id/approve",
    {
      tags: ["moderation"],
      summary: "Approve a listing: it becomes public (if active)",
      onRequest: admin,
    },
    async (request) => {
      const me = signedInUser(request);
      const result = await decide(app, me, request.params.id, { status: "approved" });
      request.log.info({ productId: request.params.id, by: me.id }, "listing approved");
      return result;
    },
  );

  route(
    app,
    "POST /admin/moderation/:id/reject",
    {
      tags: ["moderation"],
      summary: "Reject a listing with a reason the seller sees and is e-mailed",
      onRequest: admin,
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

  route(
    app,
    "PUT /admin/users/:id/trusted-seller",
    {
      tags: ["moderation"],
      summary: "Mark a seller trusted (listings public without review) or not",
      onRequest: admin,
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

  route(
    app,
    "GET /admin/featured-products",
    {
      tags: ["moderation"],
      summary: "The chosen Featured Products in their order",
      onRequest: admin,
    },
    async () => featuredForAdmin(app),
  );

  route(
    app,
    "PUT /admin/featured-products",
    {
      tags: ["moderation"],
      summary: "Replace the chosen Featured Products and their order (empty: the default)",
      onRequest: admin,
    },
    async (request) => {
      const me = signedInUser(request);
      const result = await chooseFeatured(app, me, request.body.productIds);
      request.log.info({ by: me.id, count: result.items.length }, "featured products chosen");
      return result;
    },
  );
};
