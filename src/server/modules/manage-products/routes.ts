import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { hasRole } from "#domain/accounts";
import { requireAnyRole, signedInUser } from "#server/auth/guards";
import { route } from "#server/http/route";
import { listManagedProducts } from "#server/modules/manage-products/repository";
import {
  createListing,
  editablePlans,
  editableProduct,
  editListing,
  listingDepsOf,
  ownerOf,
  savePlans,
  setListingActive,
} from "#server/modules/manage-products/service";

/**
 * Saves of listings, counted per account (the guard has run, so the user is known; an address is
 * changed at will). Any self-registered seller may write listings, and a save of a public one clears
 * every instance's catalogue cache (decision 0018): this keeps a loop of saves to one every 20 seconds.
 * Admins, who run the catalogue, are not counted.
 */
export const LISTING_WRITE_LIMIT = { max: 30, timeWindow: "10 minutes" };
const listingWriteLimit = {
  ...LISTING_WRITE_LIMIT,
  keyGenerator: (request: FastifyRequest) => `listing-write:${request.user?.id ?? request.ip}`,
  allowList: (request: FastifyRequest) => request.user !== null && hasRole(request.user, "admin"),
};

/**
 * Product management for sellers (their own products) and admins (all). Deleting only deactivates,
 * so a product leaves the public catalogue and comes back on restore.
 */
export const manageProductRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const deps = listingDepsOf(app);

  route(
    app,
    "GET /manage/products",
    {
      tags: ["manage"],
      summary: "Products to manage, newest first, inactive ones included",
      description:
        "Admins see every product (only their own with mine=true); sellers always see only their own.",
      onRequest: requireAnyRole("seller", "admin"),
    },
    async (request) => {
      const me = signedInUser(request);
      const owner = request.query.mine ? me.id : ownerOf(me);
      return listManagedProducts(db, request.query, owner);
    },
  );

  route(
    app,
    "POST /manage/products",
    {
      tags: ["manage"],
      summary: "Create a product",
      description:
        "A seller's product is theirs, sold under their storefront's name (the body's vendor is ignored); an admin's is listed by Stackbay. Owner, ids and dates in the body are ignored.",
      onRequest: requireAnyRole("seller", "admin"),
      config: { rateLimit: listingWriteLimit },
    },
    async (request, reply) => {
      const me = signedInUser(request);
      const product = await createListing(deps, me, request.body);
      request.log.info({ productId: product.id, by: me.id }, "product created");
      return reply.status(201).send({ product });
    },
  );

  route(
    app,
    "GET /manage/products/:id",
    {
      tags: ["manage"],
      summary: "One product with everything its owner may edit",
      onRequest: requireAnyRole("seller", "admin"),
    },
    async (request) => ({ product: await editableProduct(deps, signedInUser(request), request.params.id) }),
  );

  route(
    app,
    "PATCH /manage/products/:id",
    {
      tags: ["manage"],
      summary: "Replace a product's editable fields, features and specifications",
      onRequest: requireAnyRole("seller", "admin"),
      config: { rateLimit: listingWriteLimit },
    },
    async (request) => {
      const me = signedInUser(request);
      const { id } = request.params;
      const product = await editListing(deps, me, id, request.body);
      request.log.info({ productId: id, by: me.id }, "product updated");
      return { product };
    },
  );

  route(
    app,
    "DELETE /manage/products/:id",
    {
      tags: ["manage"],
      summary: "Deactivate a product (soft delete; restore undoes it)",
      onRequest: requireAnyRole("seller", "admin"),
      config: { rateLimit: listingWriteLimit },
    },
    async (request) => {
      const me = signedInUser(request);
      const product = await setListingActive(deps, me, request.params.id, false);
      request.log.info({ productId: product.id, by: me.id }, "product deactivated");
      return { product };
    },
  );

  route(
    app,
    "POST /manage/products/:id/restore",
    {
      tags: ["manage"],
      summary: "Make a deactivated product active again",
      onRequest: requireAnyRole("seller", "admin"),
      config: { rateLimit: listingWriteLimit },
    },
    async (request) => {
      const me = signedInUser(request);
      const product = await setListingActive(deps, me, request.params.id, true);
      request.log.info({ productId: product.id, by: me.id }, "product restored");
      return { product };
    },
  );

  route(
    app,
    "GET /manage/products/:id/plans",
    {
      tags: ["manage"],
      summary: "A recurring product's plans, with their live subscribers",
      onRequest: requireAnyRole("seller", "admin"),
    },
    async (request) => ({ plans: await editablePlans(deps, signedInUser(request), request.params.id) }),
  );

  route(
    app,
    "PUT /manage/products/:id/plans",
    {
      tags: ["manage"],
      summary: "Replace a recurring product's plans",
      description:
        "Plans with an id are edited, plans without one added, live plans left out archived (their subscribers keep them). The first plan is the product's listed price. A price change is announced to the plan's subscribers by e-mail and applies from their first renewal at least 7 (monthly) or 30 (yearly) days later.",
      onRequest: requireAnyRole("seller", "admin"),
      config: { rateLimit: listingWriteLimit },
    },
    async (request) => {
      const me = signedInUser(request);
      const plans = await savePlans(deps, me, request.params.id, request.body);
      request.log.info({ productId: request.params.id, by: me.id }, "plans saved");
      return { plans };
    },
  );
};
