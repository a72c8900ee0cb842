import { and, asc, count, desc, eq, like, or, sql } from "drizzle-orm";
import { type StorefrontValues, storefrontSlugBase } from "#domain/storefronts";
import type { Database, Db } from "#server/db/client";
import { onSale, productColumns, toProductCard } from "#server/db/products";
import { user } from "#server/db/schema/auth";
import {
  products,
  retiredStorefrontSlugs,
  storefrontChanges,
  storefronts,
  uploads,
} from "#server/db/schema/catalog";
import { reviews } from "#server/db/schema/reviews";

/** A database or an open transaction. */
export type StorefrontRow = typeof storefronts.$inferSelect;
export type StorefrontChangeRow = typeof storefrontChanges.$inferSelect;

/**
 * Whether the storefront shows its Verified badge: verified by an admin, and no new name or logo waits
 * for review (the badge vouched for the identity it was given to).
 */
const showsVerified = () =>
  sql<boolean>`(${storefronts.isVerified} and not exists (select 1 from ${storefrontChanges}
    where ${storefrontChanges.userId} = ${storefronts.userId} and ${storefrontChanges.status} = 'pending'))`;

export async function findStorefrontOf(db: Db, userId: string): Promise<StorefrontRow | null> {
  const [row] = await db.select().from(storefronts).where(eq(storefronts.userId, userId));
  return row ?? null;
}

/** The storefront with its owner's account facts the public page needs. */
export async function findStorefrontBySlug(db: Db, slug: string) {
  const [row] = await db
    .select({
      storefront: storefronts,
      memberSince: user.createdAt,
      banned: user.banned,
      showsVerified: showsVerified(),
    })
    .from(storefronts)
    .innerJoin(user, eq(user.id, storefronts.userId))
    .where(eq(storefronts.slug, slug));
  return row ?? null;
}

/**
 * The seller's storefront, created on first need with a name from their account and a slug not yet
 * taken (`-2`, `-3`, … appended). Safe to call twice: an existing one is returned unchanged.
 */
export async function ensureStorefront(
  db: Db,
  seller: { id: string; firstName?: string | null; lastName?: string | null; name?: string | null },
  /** A better name than the person's, such as the company of an approved partner application. */
  preferredName?: string | null,
): Promise<StorefrontRow> {
  const existing = await findStorefrontOf(db, seller.id);
  if (existing) return existing;
  const name = (
    preferredName?.trim() ||
    `${seller.firstName ?? ""} ${seller.lastName ?? ""}`.trim() ||
    seller.name?.trim() ||
    "Vendor"
  ).slice(0, 80);
  const base = storefrontSlugBase(name);
  // Slugs in use, and those of deleted storefronts, which are never given again.
  const [live, retired] = await Promise.all([
    db
      .select({ slug: storefronts.slug })
      .from(storefronts)
      .where(or(eq(storefronts.slug, base), like(storefronts.slug, `${base}-%`))),
    db
      .select({ slug: retiredStorefrontSlugs.slug })
      .from(retiredStorefrontSlugs)
      .where(or(eq(retiredStorefrontSlugs.slug, base), like(retiredStorefrontSlugs.slug, `${base}-%`))),
  ]);
  const taken = new Set([...live, ...retired].map((r) => r.slug));
  let slug = base;
  for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`;
  // A concurrent creation for the same seller or slug loses quietly; the row read back is the winner.
  await db.insert(storefronts).values({ userId: seller.id, slug, name }).onConflictDoNothing();
  const created = await findStorefrontOf(db, seller.id);
  if (!created) throw new Error("storefront slug already taken");
  return created;
}

/** Call inside a transaction: the storefront row and its products' vendor change together. */
export async function saveStorefront(db: Db, userId: string, values: StorefrontValues) {
  await db
    .update(storefronts)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(storefronts.userId, userId));
  await db
    .update(products)
    .set({ vendor: values.name })
    .where(and(eq(products.sellerId, userId), sql`${products.vendor} is distinct from ${values.name}`));
}

export async function setVerified(db: Db, userId: string, verified: boolean, by: string) {
  await db
    .update(storefronts)
    .set(
      verified
        ? { isVerified: true, verifiedBy: by, verifiedAt: new Date(), updatedAt: new Date() }
        : { isVerified: false, verifiedBy: null, verifiedAt: null, updatedAt: new Date() },
    )
    .where(eq(storefronts.userId, userId));
}

/** One page of the seller's public products, newest first (the catalogue's default order). */
export async function listVendorProducts(db: Db, sellerId: string, page: number, pageSize: number) {
  const where = and(eq(products.sellerId, sellerId), onSale());
  const [rows, [counted]] = await Promise.all([
    db
      .select(productColumns)
      .from(products)
      .where(where)
      .orderBy(desc(products.createdAt), desc(products.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ n: count() }).from(products).where(where),
  ]);
  return { items: rows.map(toProductCard), total: counted?.n ?? 0, page, pageSize };
}

/** Count and star sum of the published reviews of the seller's public products. */
export async function vendorReviewTotals(db: Db, sellerId: string) {
  const [row] = await db
    .select({ n: count(), stars: sql<number>`coalesce(sum(${reviews.rating}), 0)::int` })
    .from(reviews)
    .innerJoin(products, eq(products.id, reviews.productId))
    .where(and(eq(products.sellerId, sellerId), onSale(), eq(reviews.status, "published")));
  return { count: row?.n ?? 0, stars: Number(row?.stars ?? 0) };
}

/** Storefronts the sitemap lists: those with at least one public product, or verified. */
export async function listPublicStorefronts(db: Pick<Database, "select">) {
  return db
    .select({ slug: storefronts.slug, updatedAt: storefronts.updatedAt })
    .from(storefronts)
    .innerJoin(user, eq(user.id, storefronts.userId))
    .where(
      and(
        sql`not coalesce(${user.banned}, false)`,
        or(
          showsVerified(),
          sql`exists (select 1 from ${products} where ${products.sellerId} = ${storefronts.userId} and ${onSale()})`,
        ),
      ),
    )
    .orderBy(storefronts.slug);
}

/** Whether `url` is a file this user uploaded (`uploads` records every upload with its owner). */
export async function isOwnUpload(db: Db, url: string, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ url: uploads.url })
    .from(uploads)
    .where(and(eq(uploads.url, url), eq(uploads.ownerId, userId)));
  return Boolean(row);
}

export async function hasPublicProduct(db: Db, sellerId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: products.id })
    .from(products)
    .where(and(eq(products.sellerId, sellerId), onSale()))
    .limit(1);
  return Boolean(row);
}

export async function findStorefrontChange(db: Db, userId: string): Promise<StorefrontChangeRow | null> {
  const [row] = await db.select().from(storefrontChanges).where(eq(storefrontChanges.userId, userId));
  return row ?? null;
}

/** A new name and logo for review: replaces any earlier one, rejected or not. */
export async function submitStorefrontChange(
  db: Db,
  userId: string,
  change: { name: string; logoUrl: string | null },
) {
  const pending = {
    ...change,
    status: "pending" as const,
    reason: null,
    submittedAt: new Date(),
    decidedBy: null,
    decidedAt: null,
  };
  await db
    .insert(storefrontChanges)
    .values({ userId, ...pending })
    .onConflictDoUpdate({ target: storefrontChanges.userId, set: pending });
}

export async function deleteStorefrontChange(db: Db, userId: string) {
  await db.delete(storefrontChanges).where(eq(storefrontChanges.userId, userId));
}

export async function rejectStorefrontChange(db: Db, userId: string, reason: string, by: string) {
  await db
    .update(storefrontChanges)
    .set({ status: "rejected", reason, decidedBy: by, decidedAt: new Date() })
    .where(eq(storefrontChanges.userId, userId));
}

/** The changes waiting for an admin, oldest first (a partial index on the pending ones). */
export async function listPendingStorefrontChanges(db: Db) {
  return db
    .select({
      slug: storefronts.slug,
      currentName: storefronts.name,
      currentLogoUrl: storefronts.logoUrl,
      name: storefrontChanges.name,
      logoUrl: storefrontChanges.logoUrl,
      isVerified: storefronts.isVerified,
      submittedAt: storefrontChanges.submittedAt,
    })
    .from(storefrontChanges)
    .innerJoin(storefronts, eq(storefronts.userId, storefrontChanges.userId))
    .where(eq(storefrontChanges.status, "pending"))
    .orderBy(asc(storefrontChanges.submittedAt))
    .limit(200);
}
