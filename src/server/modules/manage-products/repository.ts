import { and, asc, count, desc, eq, type SQL, sql } from "drizzle-orm";
import type { ModerationStatus } from "#domain/moderation";
import {
  type EditableProduct,
  MANAGE_PRODUCTS_PAGE_SIZE,
  type ManageProductsQuery,
  type ProductValues,
} from "#domain/product-admin";
import type { Db } from "#server/db/client";
import { listedMeter, payAsYouGoOfRow, productColumns } from "#server/db/products";
import { categories, productFeatures, productSpecifications, products } from "#server/db/schema/catalog";
import { containsPattern } from "#server/lib/like";

/** A database or an open transaction. */
/** Whose products a caller may manage: null for every product (admins), else one seller's id. */
export type Owner = string | null;

const ownedBy = (owner: Owner) => (owner === null ? undefined : eq(products.sellerId, owner));

/** Newest first; inactive products included, as the managers need them. */
export async function listManagedProducts(db: Db, query: ManageProductsQuery, owner: Owner) {
  const conditions: (SQL | undefined)[] = [ownedBy(owner)];
  // search_text has no accents (decision 0017): the pattern loses its own the same way.
  if (query.search) {
    conditions.push(
      sql`${products.searchText} like immutable_unaccent(lower(${containsPattern(query.search)}))`,
    );
  }
  if (query.status !== "all") conditions.push(eq(products.isActive, query.status === "active"));
  const where = and(...conditions);
  const [rows, [counted]] = await Promise.all([
    db
      .select({
        id: products.id,
        name: products.name,
        category: products.category,
        categoryName: categories.name,
        price: products.price,
        originalPrice: products.originalPrice,
        pricingUnit: products.pricingUnit,
        listedMeter,
        vendor: products.vendor,
        imageUrl: products.imageUrl,
        isActive: products.isActive,
        isResellable: products.isResellable,
        sellerId: products.sellerId,
        moderationStatus: products.moderationStatus,
        moderationReason: products.moderationReason,
        updatedAt: products.updatedAt,
      })
      .from(products)
      .leftJoin(categories, eq(categories.slug, products.category))
      .where(where)
      .orderBy(desc(products.createdAt), desc(products.id))
      .limit(MANAGE_PRODUCTS_PAGE_SIZE)
      .offset((query.page - 1) * MANAGE_PRODUCTS_PAGE_SIZE),
    db.select({ n: count() }).from(products).where(where),
  ]);
  return {
    items: rows.map(({ listedMeter: meter, ...row }) => ({
      ...row,
      payAsYouGo: payAsYouGoOfRow(meter),
      price: Number(row.price),
      originalPrice: row.originalPrice === null ? null : Number(row.originalPrice),
      updatedAt: row.updatedAt.toISOString(),
    })),
    total: counted?.n ?? 0,
    page: query.page,
    pageSize: MANAGE_PRODUCTS_PAGE_SIZE,
  };
}

/**
 * The product with its features and specifications, or null when it does not exist or belongs to
 * someone else: a seller cannot tell another seller's product from a missing one.
 */
export async function findEditableProduct(db: Db, id: string, owner: Owner): Promise<EditableProduct | null> {
  const [row] = await db
    .select(productColumns)
    .from(products)
    .where(and(eq(products.id, id), ownedBy(owner)));
  if (!row) return null;
  const [features, specifications] = await Promise.all([
    db
      .select({ feature: productFeatures.feature })
      .from(productFeatures)
      .where(eq(productFeatures.productId, id))
      .orderBy(asc(productFeatures.position), asc(productFeatures.id)),
    db
      .select({ key: productSpecifications.specKey, value: productSpecifications.specValue })
      .from(productSpecifications)
      .where(eq(productSpecifications.productId, id))
      .orderBy(asc(productSpecifications.position), asc(productSpecifications.id)),
  ]);
  return {
    id: row.id,
    name: row.name,
    vendor: row.vendor,
    description: row.description,
    category: row.category,
    price: Number(row.price),
    originalPrice: row.originalPrice === null ? null : Number(row.originalPrice),
    pricingUnit: row.pricingUnit,
    rating: row.rating === null ? null : Number(row.rating),
    reviewsCount: row.reviewsCount,
    discountLabel: row.discountLabel,
    discountPercentage: row.discountPercentage,
    hasDiscount: row.hasDiscount,
    features: features.map((f) => f.feature),
    specifications,
    images: row.images,
    imageUrl: row.imageUrl,
    isActive: row.isActive,
    isResellable: row.isResellable,
    // Percent with at most two decimals, from the stored four-decimal rate.
    commissionPercent: Math.round(Number(row.commissionRate) * 10_000) / 100,
    sellerId: row.sellerId,
    moderationStatus: row.moderationStatus,
    moderationReason: row.moderationReason,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function categoryExists(db: Db, slug: string): Promise<boolean> {
  const [row] = await db.select({ id: categories.id }).from(categories).where(eq(categories.slug, slug));
  return Boolean(row);
}

/** The products row's columns for the body's fields; numbers go in as exact decimal text. */
function columnsOf(values: Omit<ProductValues, "features" | "specifications">) {
  return {
    name: values.name,
    vendor: values.vendor,
    description: values.description,
    category: values.category,
    price: String(values.price),
    originalPrice: values.originalPrice === null ? null : String(values.originalPrice),
    pricingUnit: values.pricingUnit,
    discountLabel: values.discountLabel,
    discountPercentage: values.discountPercentage,
    hasDiscount: values.hasDiscount,
    images: values.images,
    imageUrl: values.imageUrl,
    isActive: values.isActive,
    isResellable: values.isResellable,
    commissionRate: (values.commissionPercent / 100).toFixed(4),
  };
}

async function writeLists(db: Db, productId: string, values: ProductValues) {
  if (values.features.length > 0) {
    await db
      .insert(productFeatures)
      .values(values.features.map((feature, position) => ({ productId, feature, position })));
  }
  if (values.specifications.length > 0) {
    await db.insert(productSpecifications).values(
      values.specifications.map((spec, position) => ({
        productId,
        specKey: spec.key,
        specValue: spec.value,
        position,
      })),
    );
  }
}

/** Call inside a transaction: the row and its lists are written together. */
export async function insertProduct(
  db: Db,
  values: ProductValues,
  sellerId: string | null,
  moderationStatus: ModerationStatus,
): Promise<string> {
  const [row] = await db
    .insert(products)
    .values({ ...columnsOf(values), sellerId, moderationStatus })
    .returning({ id: products.id });
  if (!row) throw new Error("insert returned no row");
  await writeLists(db, row.id, values);
  return row.id;
}

/** Call inside a transaction: every editable field and both lists are replaced. */
export async function replaceProduct(db: Db, id: string, values: ProductValues) {
  await db
    .update(products)
    .set({ ...columnsOf(values), updatedAt: new Date() })
    .where(eq(products.id, id));
  await db.delete(productFeatures).where(eq(productFeatures.productId, id));
  await db.delete(productSpecifications).where(eq(productSpecifications.productId, id));
  await writeLists(db, id, values);
}

/**
 * The state an edit gave the listing (decision 0013). An admin's earlier reason and decision are
 * cleared: they were about the listing as it was.
 */
export async function setEditedModerationStatus(db: Db, id: string, moderationStatus: ModerationStatus) {
  await db
    .update(products)
    .set({ moderationStatus, moderationReason: null, moderatedBy: null, moderatedAt: null })
    .where(eq(products.id, id));
}

export async function setProductActive(db: Db, id: string, isActive: boolean) {
  await db.update(products).set({ isActive, updatedAt: new Date() }).where(eq(products.id, id));
}

/** Locks the row for the rest of the transaction, so two saves of one product cannot interleave. */
export async function lockProduct(db: Db, id: string) {
  await db.select({ id: products.id }).from(products).where(eq(products.id, id)).for("update");
}
