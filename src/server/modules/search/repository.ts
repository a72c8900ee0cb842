import { and, asc, desc, eq, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "#server/db/client";
import { onSale } from "#server/db/products";
import { user } from "#server/db/schema/auth";
import { categories, products, storefronts } from "#server/db/schema/catalog";
import { searchSynonyms } from "#server/db/schema/search";
import { containsPattern, escapeLike } from "#server/lib/like";

export async function listSynonyms(db: Db) {
  return db.select().from(searchSynonyms).orderBy(asc(searchSynonyms.term));
}

export async function findSynonym(db: Db, id: string) {
  const [row] = await db.select().from(searchSynonyms).where(eq(searchSynonyms.id, id));
  return row ?? null;
}

/** Null when the word already has synonyms (the unique term). */
export async function insertSynonym(db: Db, values: { term: string; synonyms: string[] }) {
  const [row] = await db
    .insert(searchSynonyms)
    .values(values)
    .onConflictDoNothing({ target: searchSynonyms.term })
    .returning();
  return row ?? null;
}

export async function updateSynonym(db: Db, id: string, values: { term: string; synonyms: string[] }) {
  const [row] = await db
    .update(searchSynonyms)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(searchSynonyms.id, id))
    .returning();
  return row ?? null;
}

export async function deleteSynonym(db: Db, id: string) {
  await db.delete(searchSynonyms).where(eq(searchSynonyms.id, id));
}

/** Whether another row already holds this word. */
export async function termTaken(db: Db, term: string, exceptId: string) {
  const [row] = await db
    .select({ id: searchSynonyms.id })
    .from(searchSynonyms)
    .where(and(eq(searchSynonyms.term, term), sql`${searchSynonyms.id} <> ${exceptId}`));
  return Boolean(row);
}

const productSuggestion = { id: products.id, name: products.name, vendor: products.vendor };

/**
 * Any products on sale matching the query's words, unranked: ranking every match of a common word
 * is what a listing does; type-ahead only needs a few, and stops reading when it has them.
 */
export async function productsMatching(db: Db, where: SQL, limit: number) {
  return db.select(productSuggestion).from(products).where(and(onSale(), where)).limit(limit);
}

/**
 * Storefronts and categories are few (hundreds, not millions): their names are compared directly,
 * as written or nearly (`<%`), the closest first.
 */
export async function suggestVendors(db: Db, text: string, limit: number) {
  const name = sql`immutable_unaccent(lower(${storefronts.name}))`;
  return db
    .select({ slug: storefronts.slug, name: storefronts.name })
    .from(storefronts)
    .innerJoin(user, eq(user.id, storefronts.userId))
    .where(
      and(
        sql`(${name} like ${containsPattern(text)} or ${text} <% ${name})`,
        // Only storefronts whose page is public (decision 0015), so no suggestion leads to a 404.
        sql`not coalesce(${user.banned}, false)`,
        or(
          eq(storefronts.isVerified, true),
          sql`exists (select 1 from ${products} where ${products.sellerId} = ${storefronts.userId} and ${onSale()})`,
        ),
      ),
    )
    .orderBy(
      desc(sql`${name} like ${`${escapeLike(text)}%`}`),
      desc(sql`word_similarity(${text}, ${name})`),
      asc(storefronts.name),
    )
    .limit(limit);
}

export async function suggestCategories(db: Db, text: string, limit: number) {
  const name = sql`immutable_unaccent(lower(${categories.name}))`;
  return db
    .select({ slug: categories.slug, name: categories.name })
    .from(categories)
    .where(sql`(${name} like ${containsPattern(text)} or ${text} <% ${name})`)
    .orderBy(
      desc(sql`${name} like ${`${escapeLike(text)}%`}`),
      desc(sql`word_similarity(${text}, ${name})`),
      asc(categories.name),
    )
    .limit(limit);
}
