import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { requireRole, signedInUser } from "#server/auth/guards";
import { route } from "#server/http/route";
import {
  decideStorefrontChange,
  setVerification,
  storefrontChangeQueue,
  storefrontOf,
  updateStorefront,
  vendorPage,
} from "#server/modules/storefronts/service";

/** Storefront saves, per account: each may clear the catalogue cache (the storefronts table's trigger). */
const saveLimit = {
  max: 20,
  timeWindow: "10 minutes",
  keyGenerator: (request: FastifyRequest) => `storefront-save:${request.user?.id ?? request.ip}`,
};

/**
 * Vendor storefronts (issue 17, item 5): the public page of each seller, the seller's own editor and
 * the admins' Verified vendor decision.
 */
export const storefrontRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;

  route(
    app,
    "GET /vendors/:slug",
    {
      tags: ["catalogue"],
      summary: "A vendor's storefront with a page of its products and its overall rating",
      description:
        "404 STOREFRONT_NOT_FOUND for an unknown slug, and for a storefront whose seller has no product on sale and is not verified.",
    },
    async (request, reply) => {
      reply.header("cache-control", "public, no-cache");
      return vendorPage(db, request.params.slug, request.query.page, app.clock.now());
    },
  );

  route(
    app,
    "GET /seller/storefront",
    {
      tags: ["seller"],
      summary: "The seller's own storefront, for the dashboard form",
      onRequest: requireRole("seller"),
    },
    async (request) => ({ storefront: await storefrontOf(db, signedInUser(request)) }),
  );

  route(
    app,
    "PUT /seller/storefront",
    {
      tags: ["seller"],
      summary:
        "Save the seller's storefront; a new name or logo waits for review unless the seller is trusted",
      description:
        "Description, website and country change at once. A new name or logo of an untrusted seller is answered as pendingChange: the storefront, its Verified badge and the products' vendor keep the approved ones until an admin approves it. The logo must be an image the seller uploaded through POST /api/uploads/images (403 IMAGE_NOT_YOURS otherwise); the website must be an https address.",
      onRequest: requireRole("seller"),
      config: { rateLimit: saveLimit },
    },
    async (request) => {
      const me = signedInUser(request);
      const { storefront, renamed, submitted } = await updateStorefront(
        db,
        app.jobs,
        app.storage,
        me,
        request.body,
      );
      request.log.info({ by: me.id, renamed, submitted }, "storefront saved");
      return { storefront };
    },
  );

  route(
    app,
    "PUT /admin/vendors/:slug/verification",
    {
      tags: ["moderation"],
      summary: "Mark a storefront a Verified vendor, or take the badge away (audited)",
      onRequest: requireRole("admin"),
    },
    async (request) => {
      const me = signedInUser(request);
      const storefront = await setVerification(db, me, request.params.slug, request.body.verified);
      request.log.info({ by: me.id, verified: storefront.isVerified }, "storefront verification set");
      return { slug: storefront.slug, isVerified: storefront.isVerified, verifiedAt: storefront.verifiedAt };
    },
  );

  route(
    app,
    "GET /admin/storefront-changes",
    {
      tags: ["moderation"],
      summary: "New storefront names and logos waiting for review, oldest first (at most 200)",
      onRequest: requireRole("admin"),
    },
    async () => storefrontChangeQueue(db),
  );

  route(
    app,
    "POST /admin/storefront-changes/:slug/approve",
    {
      tags: ["moderation"],
      summary:
        "Approve a storefront's new name and logo: they become its own and its products' vendor (audited)",
      onRequest: requireRole("admin"),
    },
    async (request) => {
      const me = signedInUser(request);
      const answer = await decideStorefrontChange(db, app.jobs, me, request.params.slug, { approve: true });
      request.log.info({ by: me.id }, "storefront change approved");
      return answer;
    },
  );

  route(
    app,
    "POST /admin/storefront-changes/:slug/reject",
    {
      tags: ["moderation"],
      summary: "Reject a storefront's new name and logo with a reason the seller reads (audited)",
      onRequest: requireRole("admin"),
    },
    async (request) => {
      const me = signedInUser(request);
      const answer = await decideStorefrontChange(db, app.jobs, me, request.params.slug, {
        approve: false,
        reason: request.body.reason,
      });
      request.log.info({ by: me.id }, "storefront change rejected");
      return answer;
    },
  );
};
