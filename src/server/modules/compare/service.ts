import type { ProductCard } from "#domain/catalog-schemas";
import { alignSpecifications, type CompareAnswer } from "#domain/compare";
import { MAX_RELATED } from "#domain/compare-ids";
import { toUnits } from "#domain/money";
import type { Database } from "#server/db/client";
import { toProductCard } from "#server/db/products";
import { NotFound } from "#server/errors";
import {
  findOnSaleProducts,
  findOnSaleSource,
  listFeaturesOf,
  listRelatedCandidates,
  listSpecificationsOf,
  type RelatedSource,
} from "#server/modules/compare/repository";

/**
 * The asked-for products side by side, in the asked order. Products no longer on sale are left out and
 * named in `missing`, so a shared link to a withdrawn product still shows the others.
 */
export async function compareProducts(db: Database, ids: readonly string[]): Promise<CompareAnswer> {
  const rows = await findOnSaleProducts(db, ids);
  const byId = new Map(rows.map((row) => [row.id, row]));
  const found = ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [row] : [];
  });
  const foundIds = found.map((row) => row.id);
  const [features, specifications] = await Promise.all([
    listFeaturesOf(db, foundIds),
    listSpecificationsOf(db, foundIds),
  ]);
  return {
    products: found.map((row) => ({
      ...toProductCard(row),
      features: features.filter((f) => f.productId === row.id).map((f) => f.feature),
    })),
    specifications: alignSpecifications(
      foundIds.map((id) => specifications.filter((s) => s.productId === id)),
    ),
    missing: ids.filter((id) => !byId.has(id)),
  };
}

type Candidate = Parameters<typeof toProductCard>[0] & { sellerId: string | null };

/**
 * Same category first, then the same seller, then the closest price (compared in exact minor units),
 * the id breaking ties so the row is stable between loads.
 */
export function rankRelated(source: RelatedSource, candidates: readonly Candidate[], limit: number) {
  const unique = new Map(candidates.filter((c) => c.id !== source.id).map((c) => [c.id, c]));
  const price = toUnits(source.price);
  const key = (c: Candidate) => ({
    category: c.category === source.category ? 0 : 1,
    seller: source.sellerId !== null && c.sellerId === source.sellerId ? 0 : 1,
    distance: Math.abs(toUnits(c.price) - price),
  });
  return [...unique.values()]
    .map((candidate) => ({ candidate, rank: key(candidate) }))
    .sort(
      (a, b) =>
        a.rank.category - b.rank.category ||
        a.rank.seller - b.rank.seller ||
        a.rank.distance - b.rank.distance ||
        (a.candidate.id < b.candidate.id ? -1 : 1),
    )
    .slice(0, limit)
    .map(({ candidate }) => candidate);
}

export async function relatedProducts(db: Database, id: string): Promise<ProductCard[]> {
  const source = await findOnSaleSource(db, id);
  if (!source) throw new NotFound("Product not found.", "PRODUCT_NOT_FOUND");
  const candidates = await listRelatedCandidates(db, source, MAX_RELATED);
  return rankRelated(source, candidates, MAX_RELATED).map(toProductCard);
}
