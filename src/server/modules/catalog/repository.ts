import { and, asc, count, desc, eq, getTableColumns, type SQL, sql } from "drizzle-orm";
import type { ProductCard, ProductDetail, ProductListQuery } from "#domain/catalog-schemas";
import type { Database } from "#server/db/client";
import {
  categories,
  fxRates,
  productFeatures,
  productSpecifications,
  products,
  storefronts,
} from "#server/db/schema/catalog";
import { siteContentBlocks } from "#server/db/schema/content";
import { relevanceOrder, searchCondition, searchTerms } from "#server/modules/catalog/search";

type ProductRow = Omit<typeof products.$inferSelect, "searchText" | "searchName"> & {
  vendorSlug: string | null;
};

/**
 * A product the public may see and buy: active, and approved by an admin or listed by a trusted
 * seller (decision 0013). Every public read (list, detail, search, sitemap, head tags, saved items,
 * checkout) filters with this.
 */
export const onSale = (): SQL<boolean> =>
  sql<boolean>`(${products.isActive} and ${products.moderationStatus} = 'approved')`;

// Everything but the derived search columns, which are only used for matching, plus the
// seller's storefront slug for the "by Vendor" link (null for products Stackbay lists itself).
const { searchText: _searchText, searchName: _searchName, ...columns } = getTableColumns(products);
export const productColumns = {
  ...columns,
  vendorSlug: sql<
    string | null
  >`(select ${storefronts.slug} from ${storefronts} where ${storefronts.userId} = ${products.sellerId})`,
};

/** Numeric columns arrive as strings; this is the one place they become JSON numbers for display. */
export function toProductCard(row: ProductRow): ProductCard {
  return {
    id: row.id,
    name: row.name,
    vendor: row.vendor,
    vendorSlug: row.vendorSlug,
    category: row.category,
    price: Number(row.price),
    originalPrice: row.originalPrice === null ? null : Number(row.originalPrice),
    pricingUnit: row.pricingUnit,
    imageUrl: row.imageUrl,
    rating: row.rating === null ? null : Number(row.rating),
    reviewsCount: row.reviewsCount,
    hasDiscount: row.hasDiscount,
    discountLabel: row.discountLabel,
    discountPercentage: row.discountPercentage,
  };
}

const orderings: Record<ProductListQuery["sort"], SQL[]> = {
  default: [desc(products.createdAt), desc(products.id)],
  newest: [desc(products.createdAt), desc(products.id)],
  "price-low": [asc(products.price), asc(products.id)],
  "price-high": [desc(products.price), desc(products.id)],
  // The Bayesian score (decision 0012), not the plain mean: one 5-star review does not lead the list.
  rating: [sql`${products.ratingScore} desc nulls last`, asc(products.id)],
  // Without a query there is nothing to be relevant to: the featured order.
  relevance: [desc(products.createdAt), desc(products.id)],
};

type CountTotal = (key: string, count: () => Promise<number>) => Promise<number>;

/**
 * One page of active products and the number of all matches. `countTotal` lets the caller cache the
 * count, which is the expensive half on a large catalogue.
 */
export async function listProducts(
  db: Database,
  query: ProductListQuery,
  countTotal: CountTotal = (_key, run) => run(),
) {
  const conditions: SQL[] = [onSale()];
  const terms = await searchTerms(db, query.search);
  const matches = searchCondition(terms);
  if (matches) conditions.push(matches);
  if (query.category !== "all") conditions.push(eq(products.category, query.category));
  if (query.discount) conditions.push(eq(products.hasDiscount, true));
  const where = and(...conditions);

  const countKey = JSON.stringify([query.search.toLowerCase(), query.category, query.discount]);
  const [rows, total] = await Promise.all([
    db
      .select(productColumns)
      .from(products)
      .where(where)
      .orderBy(
        ...(terms.length > 0 && (query.sort === "relevance" || query.sort === "default")
          ? relevanceOrder(terms)
          : orderings[query.sort]),
      )
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    countTotal(
      countKey,
      async () => (await db.select({ n: count() }).from(products).where(where))[0]?.n ?? 0,
    ),
  ]);
  return {
    items: rows.map(toProductCard),
    total,
    page: query.page,
    pageSize: query.pageSize,
  };
}

export async function findActiveProduct(db: Database, id: string) {
  const [row] = await db
    .select(productColumns)
    .from(products)
    .where(and(eq(products.id, id), onSale()));
  return row ?? null;
}

export async function listFeatures(db: Database, productId: string) {
  const rows = await db
    .select({ id: productFeatures.id, feature: productFeatures.feature })
    .from(productFeatures)
    .where(eq(productFeatures.productId, productId))
    .orderBy(asc(productFeatures.position), asc(productFeatures.id));
  return rows;
}

export async function listSpecifications(db: Database, productId: string) {
  return db
    .select({
      id: productSpecifications.id,
      key: productSpecifications.specKey,
      value: productSpecifications.specValue,
    })
    .from(productSpecifications)
    .where(eq(productSpecifications.productId, productId))
    .orderBy(asc(productSpecifications.position), asc(productSpecifications.id));
}

export function toProductDetail(
  row: ProductRow,
  features: ProductDetail["features"],
  specifications: ProductDetail["specifications"],
): ProductDetail {
  return {
    ...toProductCard(row),
    description: row.description,
    images: row.images,
    features,
    specifications,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function listCategories(db: Database) {
  return db
    .select({ id: categories.id, name: categories.name, slug: categories.slug })
    .from(categories)
    .orderBy(desc(categories.createdAt), asc(categories.name));
}

export async function listFxRates(db: Database) {
  const rows = await db.select().from(fxRates).orderBy(asc(fxRates.currencyCode));
  return rows.map((r) => ({
    currencyCode: r.currencyCode,
    rateToUsd: Number(r.rateToUsd),
    fxBuffer: Number(r.fxBuffer),
  }));
}

export async function listContentBlocks(db: Database) {
  return db
    .select({ key: siteContentBlocks.key, content: siteContentBlocks.content })
    .from(siteContentBlocks)
    .orderBy(asc(siteContentBlocks.key));
}
