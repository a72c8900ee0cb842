import { getTableColumns, type SQL, sql } from "drizzle-orm";
import type { ProductCard } from "#domain/catalog-schemas";
import type { MeterUnit, PayAsYouGo } from "#domain/meter-units";
import type { UsageTier } from "#domain/metering";
import { payAsYouGoOf } from "#domain/metering";
import { products, storefronts } from "#server/db/schema/catalog";

/**
 * What the queries of many modules share about products (the public filter, the card's columns and
 * its mapping), kept apart from the catalogue's repository so that a module reading products does not
 * depend on the catalogue module at run time.
 */

export type ProductRow = Omit<typeof products.$inferSelect, "searchText" | "searchName"> & {
  vendorSlug: string | null;
  listedMeter: ListedMeter | string | null;
};

/** The first plan's fee and meter of a product listed at $0 a month (a pay-as-you-go listing), as JSON. */
type ListedMeter = { price: string; unit: MeterUnit; tiers: UsageTier[] };

/**
 * The meter of a product whose listed price is its first plan's fee of $0 (decision 0029): it lists
 * its unit prices instead. Read only for such products; the plan tables are spelled out, since drizzle
 * leaves a one-table select's columns unqualified and `id` or `price` would name the plan's.
 */
export const listedMeter = sql<ListedMeter | string | null>`(case when "products"."price" = 0
  and "products"."pricing_unit" = 'month' then (select case when pl.meter_unit is not null
  then json_build_object('price', pl.price, 'unit', pl.meter_unit, 'tiers', pl.usage_tiers) end
  from product_plans pl where pl.product_id = "products"."id" and pl.archived_at is null
  order by pl.position, pl.created_at limit 1) end)`;

/** A row's pay-as-you-go listing, if it is one. */
export function payAsYouGoOfRow(value: ListedMeter | string | null): PayAsYouGo | null {
  if (value === null) return null;
  const meter: ListedMeter = typeof value === "string" ? JSON.parse(value) : value;
  return payAsYouGoOf({ price: meter.price, meter: { unit: meter.unit, tiers: meter.tiers } });
}

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
  listedMeter,
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
    payAsYouGo: payAsYouGoOfRow(row.listedMeter),
    imageUrl: row.imageUrl,
    rating: row.rating === null ? null : Number(row.rating),
    reviewsCount: row.reviewsCount,
    hasDiscount: row.hasDiscount,
    discountLabel: row.discountLabel,
    discountPercentage: row.discountPercentage,
  };
}
