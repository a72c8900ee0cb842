import { and, asc, count, eq, inArray, sql } from "drizzle-orm";
import { MODERATION_PAGE_SIZE, type ModerationStatus } from "#domain/moderation";
import type { Db, Transaction } from "#server/db/client";
import { onSale, productColumns } from "#server/db/products";
import { user } from "#server/db/schema/auth";
import { categories, featuredProducts, products } from "#server/db/schema/catalog";

/** A database or an open transaction. */
/** Pending listings, oldest submission first, so nobody waits behind newer ones. */
export async function listPending(db: Db, page: number) {
  const where = eq(products.moderationStatus, "pending");
  const [rows, [counted]] = await Promise.all([
    db
      .select({
        id: products.id,
        name: products.name,
        vendor: products.vendor,
        description: products.description,
        category: products.category,
        categoryName: categories.name,
        price: products.price,
        imageUrl: products.imageUrl,
        sellerId: products.sellerId,
        sellerName: user.name,
        submittedAt: products.updatedAt,
      })
      .from(products)
      .leftJoin(user, eq(user.id, products.sellerId))
      .leftJoin(categories, eq(categories.slug, products.category))
      .where(where)
      .orderBy(asc(products.updatedAt), asc(products.id))
      .limit(MODERATION_PAGE_SIZE)
      .offset((page - 1) * MODERATION_PAGE_SIZE),
    db.select({ n: count() }).from(products).where(where),
  ]);
  return {
    items: rows.map((row) => ({
      ...row,
      price: Number(row.price),
      submittedAt: row.submittedAt.toISOString(),
    })),
    total: counted?.n ?? 0,
    page,
    pageSize: MODERATION_PAGE_SIZE,
  };
}

/** The listing's moderation state, locked for the rest of the transaction. */
export async function lockListing(db: Db, id: string) {
  const [row] = await db
    .select({
      id: products.id,
      name: products.name,
      sellerId: products.sellerId,
      moderationStatus: products.moderationStatus,
      moderationReason: products.moderationReason,
      moderatedBy: products.moderatedBy,
      moderatedAt: products.moderatedAt,
    })
    .from(products)
    .where(eq(products.id, id))
    .for("update");
  return row ?? null;
}

export async function decideListing(
  db: Db,
  id: string,
  decision: { status: ModerationStatus; reason: string | null; by: string; at: Date },
) {
  await db
    .update(products)
    .set({
      moderationStatus: decision.status,
      moderationReason: decision.reason,
      moderatedBy: decision.by,
      moderatedAt: decision.at,
    })
    .where(eq(products.id, id));
}

export async function findAccount(db: Db, id: string) {
  const [row] = await db
    .select({
      id: user.id,
      email: user.email,
      firstName: user.firstName,
      isSeller: user.isSeller,
      isTrustedSeller: user.isTrustedSeller,
    })
    .from(user)
    .where(eq(user.id, id))
    .for("update");
  return row ?? null;
}

export async function setTrustedSeller(db: Db, id: string, trusted: boolean) {
  await db.update(user).set({ isTrustedSeller: trusted, updatedAt: new Date() }).where(eq(user.id, id));
}

/** The chosen products in their order, each with whether it may be shown now. */
export async function listFeaturedForAdmin(db: Db) {
  const rows = await db
    .select({
      id: products.id,
      name: products.name,
      vendor: products.vendor,
      imageUrl: products.imageUrl,
      price: products.price,
      shown: onSale(),
    })
    .from(featuredProducts)
    .innerJoin(products, eq(products.id, featuredProducts.productId))
    .orderBy(asc(featuredProducts.position));
  return rows.map((row) => ({ ...row, price: Number(row.price) }));
}

/** The chosen products the public may see, in the admins' order. */
export async function listFeaturedOnSale(db: Db) {
  return db
    .select(productColumns)
    .from(featuredProducts)
    .innerJoin(products, eq(products.id, featuredProducts.productId))
    .where(onSale())
    .orderBy(asc(featuredProducts.position));
}

/** The ids among `ids` that are on sale, so only those can be chosen. */
export async function idsOnSale(db: Db, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: products.id })
    .from(products)
    .where(and(inArray(products.id, ids), onSale()));
  return rows.map((row) => row.id);
}

/**
 * The whole ordered list is replaced at once. Two admins saving together are serialised by a
 * transaction-scoped lock, so the list is one of theirs, never a mix.
 */
export async function replaceFeatured(tx: Transaction, ids: string[], by: string) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('featured_products'))`);
  await tx.delete(featuredProducts);
  if (ids.length > 0) {
    await tx
      .insert(featuredProducts)
      .values(ids.map((productId, position) => ({ productId, position, addedBy: by })));
  }
}
