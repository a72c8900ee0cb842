import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { hasRole } from "#domain/accounts";
import { type ListingAuthor, needsReview, statusAfterEdit, statusOfNewListing } from "#domain/moderation";
import {
  type EditableProduct,
  editableProductSchema,
  managedProductListSchema,
  manageProductsQuery,
  type ProductValues,
  productInputSchema,
} from "#domain/product-admin";
import { requireAnyRole, signedInUser, type UserRow } from "#server/auth/guards";
import { AppError, NotFound, ValidationError } from "#server/errors";
import { recordAudit } from "#server/lib/audit";
import { reviewWaitingNotice } from "#server/mail/moderation-mail";
import {
  categoryExists,
  findEditableProduct,
  insertProduct,
  listManagedProducts,
  lockProduct,
  type Owner,
  replaceProduct,
  setEditedModerationStatus,
  setProductActive,
} from "#server/modules/manage-products/repository";
import { notifyAdmins } from "#server/modules/notifications/service";
import { ensureStorefront, findStorefrontOf } from "#server/modules/storefronts/repository";
import { uploadsOfOthers } from "#server/modules/uploads/repository";

const productAnswer = z.object({ product: editableProductSchema });
const idParams = z.object({ id: z.uuid("Unknown product") });
const notFound = () => new NotFound("Product not found.", "PRODUCT_NOT_FOUND");

/** Admins manage every product; anyone else (a seller) only their own. */
const ownerOf = (me: UserRow): Owner => (hasRole(me, "admin") ? null : me.id);

const authorOf = (me: UserRow): ListingAuthor => ({
  isAdmin: hasRole(me, "admin"),
  isTrustedSeller: me.isTrustedSeller,
});

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

/** The audit snapshot: the editable fields, lists as arrays; bookkeeping dates left out. */
const snapshot = ({ createdAt: _c, updatedAt: _u, ...product }: EditableProduct) => product;

/**
 * Product management for sellers (their own products) and admins (all). Deleting only deactivates,
 * so a product leaves the public catalogue and comes back on restore.
 */
export const manageProductRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  app.addHook("onRequest", requireAnyRole("seller", "admin"));

  /**
   * A seller's product is sold under their storefront: its vendor is the storefront's name whoever
   * saves it (the form has no vendor field for them); only products Stackbay lists itself (no seller)
   * keep a typed vendor. Images must be the seller's own uploads, or already on the product (an admin
   * may have put them there); admins may attach any.
   */
  async function valuesFor(
    me: UserRow,
    body: ProductValues,
    sellerId: string | null,
    current: string[] = [],
  ): Promise<ProductValues> {
    if (!(await categoryExists(db, body.category))) {
      const message = `Unknown category '${body.category}'. Please select one of the categories.`;
      throw new ValidationError(message, [{ path: "category", message }]);
    }
    const added = body.images.filter((url) => !current.includes(url));
    // The schema lets any http(s) address through (a bucket's URLs are absolute); only this storage's are ours.
    const message = "Images must be uploaded to Stackbay";
    const foreign = body.images.flatMap((url, index) =>
      added.includes(url) && app.storage.keyOf(url) === null ? [{ path: `images.${index}`, message }] : [],
    );
    if (foreign.length > 0) throw new ValidationError(message, foreign);
    if (!hasRole(me, "admin")) {
      if ((await uploadsOfOthers(db, added, me.id)).length > 0) {
        throw new AppError(403, "IMAGE_NOT_YOURS", "You can only use images you uploaded yourself.");
      }
    }
    if (sellerId === null) return body;
    const storefront =
      sellerId === me.id ? await ensureStorefront(db, me) : await findStorefrontOf(db, sellerId);
    return { ...body, vendor: storefront?.name ?? body.vendor };
  }

  async function load(id: string, owner: Owner): Promise<EditableProduct> {
    const product = await findEditableProduct(db, id, owner);
    if (!product) throw notFound();
    return product;
  }

  app.get(
    "/manage/products",
    {
      schema: {
        tags: ["manage"],
        summary: "Products to manage, newest first, inactive ones included",
        description:
          "Admins see every product (only their own with mine=true); sellers always see only their own.",
        querystring: manageProductsQuery,
        response: { 200: managedProductListSchema },
      },
    },
    async (request) => {
      const me = signedInUser(request);
      const owner = request.query.mine ? me.id : ownerOf(me);
      return listManagedProducts(db, request.query, owner);
    },
  );

  app.post(
    "/manage/products",
    {
      config: { rateLimit: listingWriteLimit },
      schema: {
        tags: ["manage"],
        summary: "Create a product",
        description:
          "A seller's product is theirs, sold under their storefront's name (the body's vendor is ignored); an admin's is listed by Stackbay. Owner, ids and dates in the body are ignored.",
        body: productInputSchema,
        response: { 201: productAnswer },
      },
    },
    async (request, reply) => {
      const me = signedInUser(request);
      const sellerId = hasRole(me, "admin") ? null : me.id;
      const values = await valuesFor(me, request.body, sellerId);
      const product = await db.transaction(async (tx) => {
        const id = await insertProduct(tx, values, sellerId, statusOfNewListing(authorOf(me)));
        const created = await findEditableProduct(tx, id, null);
        if (!created) throw new Error("created product not found");
        await recordAudit(tx, me, {
          action: "create",
          entityType: "product",
          entityId: id,
          entityLabel: created.name,
          before: null,
          after: snapshot(created),
        });
        if (created.moderationStatus === "pending")
          await notifyAdmins(app.jobs, tx, reviewWaitingNotice("listing", created.name));
        return created;
      });
      request.log.info({ productId: product.id, by: me.id }, "product created");
      return reply.status(201).send({ product });
    },
  );

  app.get(
    "/manage/products/:id",
    {
      schema: {
        tags: ["manage"],
        summary: "One product with everything its owner may edit",
        params: idParams,
        response: { 200: productAnswer },
      },
    },
    async (request) => ({ product: await load(request.params.id, ownerOf(signedInUser(request))) }),
  );

  app.patch(
    "/manage/products/:id",
    {
      config: { rateLimit: listingWriteLimit },
      schema: {
        tags: ["manage"],
        summary: "Replace a product's editable fields, features and specifications",
        params: idParams,
        body: productInputSchema,
        response: { 200: productAnswer },
      },
    },
    async (request) => {
      const me = signedInUser(request);
      const { id } = request.params;
      const owner = ownerOf(me);
      const existing = await load(id, owner);
      const values = await valuesFor(me, request.body, existing.sellerId, existing.images);
      const product = await db.transaction(async (tx) => {
        await lockProduct(tx, id);
        const before = await findEditableProduct(tx, id, owner);
        if (!before) throw notFound();
        await replaceProduct(tx, id, values);
        const status = statusAfterEdit(before.moderationStatus, authorOf(me), needsReview(before, values));
        if (status !== before.moderationStatus) await setEditedModerationStatus(tx, id, status);
        const after = await findEditableProduct(tx, id, null);
        if (!after) throw notFound();
        await recordAudit(tx, me, {
          action: "update",
          entityType: "product",
          entityId: id,
          entityLabel: after.name,
          before: snapshot(before),
          after: snapshot(after),
        });
        if (status === "pending" && before.moderationStatus !== "pending")
          await notifyAdmins(app.jobs, tx, reviewWaitingNotice("listing", after.name));
        return after;
      });
      request.log.info({ productId: id, by: me.id }, "product updated");
      return { product };
    },
  );

  /** Deactivates or reactivates; doing it twice changes nothing and records nothing. */
  async function setActive(me: UserRow, id: string, isActive: boolean) {
    const owner = ownerOf(me);
    const product = await db.transaction(async (tx) => {
      await lockProduct(tx, id);
      const before = await findEditableProduct(tx, id, owner);
      if (!before) throw notFound();
      if (before.isActive === isActive) return before;
      await setProductActive(tx, id, isActive);
      const after = await findEditableProduct(tx, id, null);
      if (!after) throw notFound();
      await recordAudit(tx, me, {
        action: isActive ? "restore" : "delete",
        entityType: "product",
        entityId: id,
        entityLabel: after.name,
        before: snapshot(before),
        after: snapshot(after),
      });
      return after;
    });
    return product;
  }

  app.delete(
    "/manage/products/:id",
    {
      config: { rateLimit: listingWriteLimit },
      schema: {
        tags: ["manage"],
        summary: "Deactivate a product (soft delete; restore undoes it)",
        params: idParams,
        response: { 200: productAnswer },
      },
    },
    async (request) => {
      const me = signedInUser(request);
      const product = await setActive(me, request.params.id, false);
      request.log.info({ productId: product.id, by: me.id }, "product deactivated");
      return { product };
    },
  );

  app.post(
    "/manage/products/:id/restore",
    {
      config: { rateLimit: listingWriteLimit },
      schema: {
        tags: ["manage"],
        summary: "Make a deactivated product active again",
        params: idParams,
        response: { 200: productAnswer },
      },
    },
    async (request) => {
      const me = signedInUser(request);
      const product = await setActive(me, request.params.id, true);
      request.log.info({ productId: product.id, by: me.id }, "product restored");
      return { product };
    },
  );
};
