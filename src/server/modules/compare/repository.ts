import { and, asc, desc, eq, gte, inArray, lt, ne, type SQL, sql } from "drizzle-orm";
import type { Database } from "#server/db/client";
import { onSale, productColumns } from "#server/db/products";
import { productFeatures, productSpecifications, products } from "#server/db/schema/catalog";

/** The asked-for products that are on sale, in no particular order. */
export async function findOnSaleProducts(db: Database, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return db
    .select(productColumns)
    .from(products)
    .where(and(inArray(products.id, [...ids]), onSale()));
}

export async function listFeaturesOf(db: Database, productIds: readonly string[]) {
  if (productIds.length === 0) return [];
  return db
    .select({ productId: productFeatures.productId, feature: productFeatures.feature })
    .from(productFeatures)
    .where(inArray(productFeatures.productId, [...productIds]))
    .orderBy(asc(productFeatures.position), asc(productFeatures.id));
}

export async function listSpecificationsOf(db: Database, productIds: readonly string[]) {
  if (productIds.length === 0) return [];
  return db
    .select({
      productId: productSpecifications.productId,
      key: productSpecifications.specKey,
      value: productSpecifications.specValue,
    })
    .from(productSpecifications)
    .where(inArray(productSpecifications.productId, [...productIds]))
    .orderBy(asc(productSpecifications.position), asc(productSpecifications.id));
}

export type RelatedSource = {
  id: string;
  category: string;
  sellerId: string | null;
  price: string;
};

export async function findOnSaleSource(db: Database, id: string): Promise<RelatedSource | null> {
  const [row] = await db
    .select({
      id: products.id,
      category: products.category,
      sellerId: products.sellerId,
      price: products.price,
    })
    .from(products)
    .where(and(eq(products.id, id), onSale()));
  return row ?? null;
}

/**
 * Candidates for "related products", each set small and read through an index: the nearest prices in
 * the same category (above and below, on the category-price index), the same seller's products (on the
 * seller index), and the nearest prices anywhere (on the price index). The service ranks their union;
 * together they hold the true top `limit` of that ranking without sorting the whole catalogue.
 */
export async function listRelatedCandidates(db: Database, source: RelatedSource, limit: number) {
  const base = (...conditions: (SQL | undefined)[]) =>
    and(ne(products.id, source.id), onSale(), ...conditions);
  const select = () => db.select({ ...productColumns, sellerId: products.sellerId }).from(products);
  const nearest = (scope?: SQL) => [
    select()
      .where(base(scope, gte(products.price, source.price)))
      .orderBy(asc(products.price), asc(products.id))
      .limit(limit),
    select()
      .where(base(scope, lt(products.price, source.price)))
      .orderBy(desc(products.price), desc(products.id))
      .limit(limit),
  ];
  const sameSeller = source.sellerId
    ? [
        select()
          .where(base(eq(products.sellerId, source.sellerId)))
          .orderBy(
            sql`(${products.category} = ${source.category}) desc`,
            sql`abs(${products.price} - ${source.price})`,
            asc(products.id),
          )
          .limit(limit),
      ]
    : [];
  const sets = await Promise.all([
    ...nearest(eq(products.category, source.category)),
    ...sameSeller,
    ...nearest(),
  ]);
  return sets.flat();
}
