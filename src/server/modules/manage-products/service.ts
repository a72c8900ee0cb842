import type { FastifyInstance } from "fastify";
import type { z } from "zod";
import { hasRole } from "#domain/accounts";
import { type ListingAuthor, needsReview, statusAfterEdit, statusOfNewListing } from "#domain/moderation";
import type { Plan, plansInputSchema } from "#domain/plan-schemas";
import type { EditableProduct, ProductValues } from "#domain/product-admin";
import { recurringIntervalOf } from "#domain/subscriptions";
import type { UserRow } from "#server/auth/guards";
import type { Database } from "#server/db/client";
import { AppError, Conflict, NotFound, ValidationError } from "#server/errors";
import type { JobQueue } from "#server/jobs/queue";
import { recordAudit } from "#server/lib/audit";
import type { Clock } from "#server/lib/clock";
import { reviewWaitingNotice } from "#server/mail/moderation-mail";
import {
  categoryExists,
  findEditableProduct,
  insertProduct,
  lockProduct,
  type Owner,
  replaceProduct,
  setEditedModerationStatus,
  setProductActive,
} from "#server/modules/manage-products/repository";
import { notifyAdmins } from "#server/modules/notifications/service";
import { plansForEditor } from "#server/modules/plans/repository";
import { followListedPrice, type PlanDeps, planDepsOf, replacePlans } from "#server/modules/plans/service";
import { ensureStorefront, findStorefrontOf } from "#server/modules/storefronts/repository";
import { uploadsOfOthers } from "#server/modules/uploads/repository";
import type { FileStorage } from "#server/storage/storage";

/**
 * What the listing rules need from the app; `listingDepsOf(app)` builds it. Plans take the mailer and
 * the site's address for their price notices, and the money clock for their dates.
 */
export type ListingDeps = PlanDeps & { db: Database; jobs: JobQueue; storage: FileStorage; clock: Clock };

export function listingDepsOf(app: FastifyInstance): ListingDeps {
  return { ...planDepsOf(app), db: app.database.db, jobs: app.jobs, storage: app.storage, clock: app.clock };
}

const notFound = () => new NotFound("Product not found.", "PRODUCT_NOT_FOUND");

/** Admins manage every product; anyone else (a seller) only their own. */
export const ownerOf = (me: UserRow): Owner => (hasRole(me, "admin") ? null : me.id);

const authorOf = (me: UserRow): ListingAuthor => ({
  isAdmin: hasRole(me, "admin"),
  isTrustedSeller: me.isTrustedSeller,
});

/** The audit snapshot: the editable fields, lists as arrays; bookkeeping dates left out. */
const snapshot = ({ createdAt: _c, updatedAt: _u, ...product }: EditableProduct) => product;

/**
 * A seller's product is sold under their storefront: its vendor is the storefront's name whoever
 * saves it (the form has no vendor field for them); only products Stackbay lists itself (no seller)
 * keep a typed vendor. Images must be the seller's own uploads, or already on the product (an admin
 * may have put them there); admins may attach any.
 */
async function valuesFor(
  deps: ListingDeps,
  me: UserRow,
  body: ProductValues,
  sellerId: string | null,
  current: string[] = [],
): Promise<ProductValues> {
  const { db } = deps;
  if (!(await categoryExists(db, body.category))) {
    const message = `Unknown category '${body.category}'. Please select one of the categories.`;
    throw new ValidationError(message, [{ path: "category", message }]);
  }
  const added = body.images.filter((url) => !current.includes(url));
  // The schema lets any http(s) address through (a bucket's URLs are absolute); only this storage's are ours.
  const message = "Images must be uploaded to Stackbay";
  const foreign = body.images.flatMap((url, index) =>
    added.includes(url) && deps.storage.keyOf(url) === null ? [{ path: `images.${index}`, message }] : [],
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

/** One product with everything its owner may edit; someone else's answers 404 like an unknown one. */
export async function editableProduct(deps: ListingDeps, me: UserRow, id: string): Promise<EditableProduct> {
  const product = await findEditableProduct(deps.db, id, ownerOf(me));
  if (!product) throw notFound();
  return product;
}

/** Creates a listing: a seller's is theirs and waits for review unless trusted; an admin's is Stackbay's. */
export async function createListing(
  deps: ListingDeps,
  me: UserRow,
  body: ProductValues,
): Promise<EditableProduct> {
  const sellerId = hasRole(me, "admin") ? null : me.id;
  const values = await valuesFor(deps, me, body, sellerId);
  return deps.db.transaction(async (tx) => {
    const id = await insertProduct(tx, values, sellerId, statusOfNewListing(authorOf(me)));
    await followListedPrice(tx, deps, listed(id, values), deps.clock.now());
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
      await notifyAdmins(deps.jobs, tx, reviewWaitingNotice("listing", created.name));
    return created;
  });
}

/** Replaces a listing's editable fields; an edit that needs review sends it back to the queue. Audited. */
export async function editListing(
  deps: ListingDeps,
  me: UserRow,
  id: string,
  body: ProductValues,
): Promise<EditableProduct> {
  const owner = ownerOf(me);
  const existing = await editableProduct(deps, me, id);
  const values = await valuesFor(deps, me, body, existing.sellerId, existing.images);
  return deps.db.transaction(async (tx) => {
    await lockProduct(tx, id);
    const before = await findEditableProduct(tx, id, owner);
    if (!before) throw notFound();
    await replaceProduct(tx, id, values);
    await followListedPrice(tx, deps, listed(id, values), deps.clock.now());
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
      await notifyAdmins(deps.jobs, tx, reviewWaitingNotice("listing", after.name));
    return after;
  });
}

/** What the plans follow of a saved listing: its name, price and pricing unit. */
const listed = (id: string, values: ProductValues) => ({
  id,
  name: values.name,
  price: String(values.price),
  pricingUnit: values.pricingUnit ?? null,
});

/** A recurring product's live plans for its editor; someone else's product answers 404 like an unknown one. */
export async function editablePlans(deps: ListingDeps, me: UserRow, id: string): Promise<Plan[]> {
  await editableProduct(deps, me, id);
  return plansForEditor(deps.db, id);
}

/**
 * Replaces a recurring product's plans (see `replacePlans`): refused for a product sold once, whose
 * pricing unit must become recurring first. Audited as an edit of the product.
 */
export async function savePlans(
  deps: ListingDeps,
  me: UserRow,
  id: string,
  input: z.output<typeof plansInputSchema>,
): Promise<Plan[]> {
  await deps.db.transaction(async (tx) => {
    await lockProduct(tx, id);
    const product = await findEditableProduct(tx, id, ownerOf(me));
    if (!product) throw notFound();
    if (!recurringIntervalOf(product.pricingUnit ?? null))
      throw new Conflict(
        "Plans are for products sold per month, per year or per user: choose such a pricing unit first.",
        "PRODUCT_NOT_RECURRING",
      );
    const { before, after } = await replacePlans(tx, deps, product, input, deps.clock.now());
    await recordAudit(tx, me, {
      action: "update",
      entityType: "product",
      entityId: id,
      entityLabel: product.name,
      before,
      after,
    });
  });
  return plansForEditor(deps.db, id);
}

/** Deactivates or reactivates; doing it twice changes nothing and records nothing. */
export async function setListingActive(
  deps: ListingDeps,
  me: UserRow,
  id: string,
  isActive: boolean,
): Promise<EditableProduct> {
  const owner = ownerOf(me);
  return deps.db.transaction(async (tx) => {
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
}
