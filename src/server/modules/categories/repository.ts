import { asc, count, desc, eq } from "drizzle-orm";
import type { AdminCategory } from "#domain/category-admin";
import type { Database } from "#server/db/client";
import { categories, products } from "#server/db/schema/catalog";

const categoryColumns = { id: categories.id, name: categories.name, slug: categories.slug };
export type CategoryRecord = { id: string; name: string; slug: string };

/** Every category with how many products (active or not) use it, newest first. */
export async function listCategoriesWithCounts(db: Database): Promise<AdminCategory[]> {
  const rows = await db
    .select({ ...categoryColumns, createdAt: categories.createdAt, productCount: count(products.id) })
    .from(categories)
    .leftJoin(products, eq(products.category, categories.slug))
    .groupBy(categories.id)
    .orderBy(desc(categories.createdAt), asc(categories.name));
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
}

/** Inserts the category, or answers null when its slug is taken (the unique index decides, race-free). */
export async function insertCategory(tx: Database, values: { name: string; slug: string }) {
  const [row] = await tx
    .insert(categories)
    .values(values)
    .onConflictDoNothing({ target: categories.slug })
    .returning({ ...categoryColumns, createdAt: categories.createdAt });
  return row ?? null;
}

/**
 * The category, locked until the transaction ends: a product insert referencing it waits, so the
 * product count read next stays true until the delete.
 */
export async function lockCategory(tx: Database, id: string): Promise<CategoryRecord | null> {
  const [row] = await tx.select(categoryColumns).from(categories).where(eq(categories.id, id)).for("update");
  return row ?? null;
}

export async function countProductsInCategory(tx: Database, slug: string): Promise<number> {
  const [row] = await tx.select({ n: count() }).from(products).where(eq(products.category, slug));
  return row?.n ?? 0;
}

export async function deleteCategory(tx: Database, id: string) {
  await tx.delete(categories).where(eq(categories.id, id));
}
