import { getTableColumns, type SQL, sql } from "drizzle-orm";
import type { ProductCard } from "#domain/catalog-schemas";
import { products, storefronts } from "#server/db/schema/catalog";

/**
 * What the queries of many modules share about products (the public filter, the card's columns and
 * its mapping), kept apart from the catalogue's repository so that a module reading products does not
 * depend on the catalogue module at run time.
 */

export type ProductRow = Omit<typeof products.$inferSelect, "searchText" | "searchName"> & {
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
