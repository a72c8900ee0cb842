import { and, inArray, isNull, ne, or } from "drizzle-orm";
import type { Db } from "#server/db/client";
import { uploads } from "#server/db/schema/catalog";

export async function recordUploads(db: Db, urls: string[], ownerId: string) {
  await db
    .insert(uploads)
    .values(urls.map((url) => ({ url, ownerId })))
    .onConflictDoNothing();
}

/** Those of `urls` that someone other than `userId` uploaded (or whose uploader is gone). */
export async function uploadsOfOthers(db: Db, urls: string[], userId: string): Promise<string[]> {
  if (urls.length === 0) return [];
  const rows = await db
    .select({ url: uploads.url })
    .from(uploads)
    .where(and(inArray(uploads.url, urls), or(isNull(uploads.ownerId), ne(uploads.ownerId, userId))));
  return rows.map((row) => row.url);
}
