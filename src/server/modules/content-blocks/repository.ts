import { asc, eq } from "drizzle-orm";
import type { Db } from "#server/db/client";
import { siteContentBlocks } from "#server/db/schema/content";

/** Every saved content block, by key; blocks never saved have no row. */
export async function listSavedContentBlocks(db: Db) {
  return db.select().from(siteContentBlocks).orderBy(asc(siteContentBlocks.key));
}

/** The saved block with this key, locked until the transaction ends, or undefined. */
export async function lockContentBlock(tx: Db, key: string) {
  const [row] = await tx.select().from(siteContentBlocks).where(eq(siteContentBlocks.key, key)).for("update");
  return row;
}

/** Stores a block's text, creating its row the first time. */
export async function upsertContentBlock(tx: Db, key: string, content: string) {
  const [saved] = await tx
    .insert(siteContentBlocks)
    .values({ key, content })
    .onConflictDoUpdate({
      target: siteContentBlocks.key,
      set: { content, updatedAt: new Date() },
    })
    .returning();
  if (!saved) throw new Error("upsert returned no content block");
  return saved;
}
