import { and, desc, eq } from "drizzle-orm";
import type { Database } from "#server/db/client";
import { onSale, productColumns, toProductCard } from "#server/db/products";
import { products } from "#server/db/schema/catalog";
import { savedItems } from "#server/db/schema/orders";

/**
 * The user's saved products, newest saved first, each with whether it is still on sale: one taken off
 * the marketplace (deactivated, or back in review) stays listed as unavailable, so it does not vanish
 * from under the user.
 */
export async function listSaved(db: Database, userId: string) {
  const rows = await db
    .select({ savedAt: savedItems.savedAt, available: onSale(), product: productColumns })
    .from(savedItems)
    .innerJoin(products, eq(products.id, savedItems.productId))
    .where(eq(savedItems.userId, userId))
    .orderBy(desc(savedItems.savedAt), desc(savedItems.id));
  return rows.map((row) => ({
    savedAt: row.savedAt.toISOString(),
    available: row.available,
    product: toProductCard(row.product),
  }));
}

export async function isSaved(db: Database, userId: string, productId: string) {
  const [row] = await db
    .select({ id: savedItems.id })
    .from(savedItems)
    .where(and(eq(savedItems.userId, userId), eq(savedItems.productId, productId)));
  return row !== undefined;
}

/** Saves an active product; false when there is no such product on sale. Saving twice keeps one row. */
export async function saveProduct(db: Database, userId: string, productId: string) {
  const [product] = await db
    .select({ id: products.id })
    .from(products)
    .where(and(eq(products.id, productId), onSale()));
  if (!product) return false;
  await db
    .insert(savedItems)
    .values({ userId, productId })
    .onConflictDoNothing({ target: [savedItems.userId, savedItems.productId] });
  return true;
}

export async function unsaveProduct(db: Database, userId: string, productId: string) {
  await db.delete(savedItems).where(and(eq(savedItems.userId, userId), eq(savedItems.productId, productId)));
}
