import type { FastifyInstance } from "fastify";
import { FEATURED_COUNT } from "#domain/catalog";
import { productListQuery } from "#domain/catalog-schemas";
import type { FeaturedAdminList, ModerationDecision } from "#domain/moderation";
import { toProductCard } from "#server/db/products";
import { NotFound, ValidationError } from "#server/errors";
import { type AuditActor, recordAudit } from "#server/lib/audit";
import { listingDecidedNotice } from "#server/mail/moderation-mail";
import { listProducts } from "#server/modules/catalog/repository";
import {
  decideListing,
  findAccount,
  idsOnSale,
  listFeaturedForAdmin,
  listFeaturedOnSale,
  lockListing,
  replaceFeatured,
  setTrustedSeller,
} from "#server/modules/moderation/repository";
import { notify } from "#server/modules/notifications/service";

const listingNotFound = () => new NotFound("Product not found.", "PRODUCT_NOT_FOUND");

type Listing = NonNullable<Awaited<ReturnType<typeof lockListing>>>;

const decisionOf = (row: Listing): ModerationDecision => ({
  id: row.id,
  moderationStatus: row.moderationStatus,
  moderationReason: row.moderationReason,
  moderatedAt: row.moderatedAt?.toISOString() ?? null,
});

const auditSnapshot = (row: Listing) => ({
  moderationStatus: row.moderationStatus,
  moderationReason: row.moderationReason,
  moderatedBy: row.moderatedBy,
});

/**
 * An admin's decision on a listing, audited in the same transaction. Approving an approved listing
 * changes and records nothing; rejecting also takes down an approved one (a listing found wrong
 * later) and e-mails the seller the reason. Only admins reach this (the route's guard), so a seller
 * cannot approve their own listing.
 */
export async function decide(
  app: FastifyInstance,
  actor: AuditActor,
  id: string,
  decision: { status: "approved" } | { status: "rejected"; reason: string },
): Promise<ModerationDecision> {
  const { db } = app.database;
  const result = await db.transaction(async (tx) => {
    const before = await lockListing(tx, id);
    if (!before) throw listingNotFound();
    if (decision.status === "approved" && before.moderationStatus === "approved") return decisionOf(before);
    const reason = decision.status === "rejected" ? decision.reason : null;
    await decideListing(tx, id, { status: decision.status, reason, by: actor.id, at: app.clock.now() });
    const after = await lockListing(tx, id);
    if (!after) throw listingNotFound();
    await recordAudit(tx, actor, {
      action: "update",
      entityType: "product",
      entityId: id,
      entityLabel: after.name,
      before: auditSnapshot(before),
      after: auditSnapshot(after),
    });
    if (after.sellerId)
      // In the same transaction: the seller hears of exactly the decision that was kept.
      await notify(
        app.jobs,
        tx,
        after.sellerId,
        listingDecidedNotice({ productId: id, productName: after.name, ...decision }),
        app.clock.now(),
      );
    return decisionOf(after);
  });
  return result;
}

/** Marks a seller trusted (their listings then go public without review) or not; audited. */
export async function setTrusted(app: FastifyInstance, actor: AuditActor, userId: string, trusted: boolean) {
  return app.database.db.transaction(async (tx) => {
    const account = await findAccount(tx, userId);
    if (!account) throw new NotFound("User not found.", "USER_NOT_FOUND");
    if (!account.isSeller && trusted) {
      throw new ValidationError("Only sellers can be marked trusted.", [
        { path: "trusted", message: "Only sellers can be marked trusted." },
      ]);
    }
    if (account.isTrustedSeller !== trusted) {
      await setTrustedSeller(tx, userId, trusted);
      await recordAudit(tx, actor, {
        action: "update",
        entityType: "user",
        entityId: userId,
        entityLabel: account.email,
        before: { isTrustedSeller: account.isTrustedSeller },
        after: { isTrustedSeller: trusted },
      });
    }
    return { id: userId, isTrustedSeller: trusted };
  });
}

export async function featuredForAdmin(app: FastifyInstance): Promise<FeaturedAdminList> {
  return { items: await listFeaturedForAdmin(app.database.db) };
}

/** Replaces the admins' ordered choice; every product must be on sale (active and approved). */
export async function chooseFeatured(
  app: FastifyInstance,
  actor: AuditActor,
  productIds: string[],
): Promise<FeaturedAdminList> {
  const { db } = app.database;
  const onSale = new Set(await idsOnSale(db, productIds));
  const refused = productIds.flatMap((id, index) =>
    onSale.has(id)
      ? []
      : [{ path: `productIds.${index}`, message: "Only active, approved products can be featured" }],
  );
  if (refused.length > 0)
    throw new ValidationError("Only active, approved products can be featured.", refused);
  await db.transaction(async (tx) => {
    const before = (await listFeaturedForAdmin(tx)).map((item) => item.id);
    await replaceFeatured(tx, productIds, actor.id);
    await recordAudit(tx, actor, {
      action: "update",
      entityType: "featured_products",
      entityId: "home",
      entityLabel: "Featured Products",
      before: { productIds: before },
      after: { productIds },
    });
  });
  return featuredForAdmin(app);
}

/**
 * The home page's Featured Products: the admins' choice in their order, leaving out any that are no
 * longer on sale; when none is left, the spec's first active products in the default order.
 */
export async function featuredForHome(app: FastifyInstance) {
  const { db } = app.database;
  const chosen = await listFeaturedOnSale(db);
  if (chosen.length > 0) return { items: chosen.slice(0, FEATURED_COUNT).map(toProductCard) };
  const fallback = await listProducts(
    db,
    productListQuery.parse({ pageSize: FEATURED_COUNT }),
    (key, count) => app.catalogueCache.value(`count:${key}`, count),
  );
  return { items: fallback.items };
}
