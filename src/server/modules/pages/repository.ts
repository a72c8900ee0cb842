import { and, desc, eq, ilike, ne, or } from "drizzle-orm";
import type { Page, PageListItem, SeoMeta } from "#domain/cms";
import type { Db } from "#server/db/client";
import { type SeoMeta as StoredSeoMeta, sitePages } from "#server/db/schema/content";
import { containsPattern } from "#server/lib/like";

type PageRow = typeof sitePages.$inferSelect;
/** The stored columns a save writes; the HTML is already sanitised. */
export type PageColumns = Omit<typeof sitePages.$inferInsert, "id" | "createdAt" | "updatedAt">;

/** The stored jsonb keeps the spec's field names and leaves out empty ones. */
export function toStoredSeoMeta(seo: SeoMeta): StoredSeoMeta | null {
  const stored: StoredSeoMeta = {};
  if (seo.title) stored.title = seo.title;
  if (seo.description) stored.description = seo.description;
  if (seo.ogImageUrl) stored.og_image_url = seo.ogImageUrl;
  return Object.keys(stored).length > 0 ? stored : null;
}

export function toPage(row: PageRow): Page {
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    content: row.content,
    isActive: row.isActive,
    seoMeta: {
      title: row.seoMeta?.title ?? "",
      description: row.seoMeta?.description ?? "",
      ogImageUrl: row.seoMeta?.og_image_url ?? "",
    },
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** What the audit trail keeps of a page: the fields an admin edits. */
export function pageSnapshot(row: PageRow) {
  return {
    slug: row.slug,
    title: row.title,
    content: row.content,
    isActive: row.isActive,
    seoMeta: row.seoMeta ?? null,
  };
}

export async function findActivePage(db: Db, slug: string) {
  const [row] = await db
    .select()
    .from(sitePages)
    .where(and(eq(sitePages.slug, slug), eq(sitePages.isActive, true)));
  return row;
}

export async function findPage(db: Db, id: string, options: { lock?: boolean } = {}) {
  const query = db.select().from(sitePages).where(eq(sitePages.id, id));
  const [row] = options.lock ? await query.for("update") : await query;
  return row;
}

/** Every page, drafts included, most recently updated first; `search` matches title or slug. */
export async function listPages(db: Db, search?: string): Promise<PageListItem[]> {
  const pattern = search ? containsPattern(search) : undefined;
  const rows = await db
    .select({
      id: sitePages.id,
      slug: sitePages.slug,
      title: sitePages.title,
      isActive: sitePages.isActive,
      updatedAt: sitePages.updatedAt,
    })
    .from(sitePages)
    .where(pattern ? or(ilike(sitePages.title, pattern), ilike(sitePages.slug, pattern)) : undefined)
    .orderBy(desc(sitePages.updatedAt), desc(sitePages.id));
  return rows.map((row) => ({ ...row, updatedAt: row.updatedAt.toISOString() }));
}

/** Whether another page than `exceptId` already has the slug. */
export async function slugTaken(db: Db, slug: string, exceptId?: string) {
  const [row] = await db
    .select({ id: sitePages.id })
    .from(sitePages)
    .where(exceptId ? and(eq(sitePages.slug, slug), ne(sitePages.id, exceptId)) : eq(sitePages.slug, slug));
  return row !== undefined;
}

/** Creates a page, a draft unless `columns` say otherwise. */
export async function insertPage(tx: Db, columns: PageColumns) {
  const [created] = await tx
    .insert(sitePages)
    .values({ isActive: false, ...columns })
    .returning();
  if (!created) throw new Error("insert returned no page");
  return created;
}

export async function updatePage(tx: Db, id: string, columns: PageColumns) {
  const [after] = await tx
    .update(sitePages)
    .set({ ...columns, updatedAt: new Date() })
    .where(eq(sitePages.id, id))
    .returning();
  return after;
}

/** Deletes the page and answers what it was, or undefined when there was none. */
export async function deletePage(tx: Db, id: string) {
  const [deleted] = await tx.delete(sitePages).where(eq(sitePages.id, id)).returning();
  return deleted;
}
