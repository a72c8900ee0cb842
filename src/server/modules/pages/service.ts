import { z } from "zod";
import type { PageValues } from "#domain/cms";
import type { Database, Db, Transaction } from "#server/db/client";
import { Conflict, NotFound, ValidationError } from "#server/errors";
import { type AuditActor, recordAudit } from "#server/lib/audit";
import { sanitizePageHtml } from "#server/lib/sanitize";
import {
  deletePage,
  findPage,
  insertPage,
  type PageColumns,
  pageSnapshot,
  slugTaken,
  toStoredSeoMeta,
  updatePage,
} from "#server/modules/pages/repository";

export const pageNotFound = () => new NotFound("Page not found.", "PAGE_NOT_FOUND");

function slugConflict(slug: string) {
  return new Conflict(`A page with the slug '${slug}' already exists.`, "PAGE_SLUG_TAKEN");
}

/** A concurrent save can pass the slug check and still hit the unique index; it is the same conflict. */
function isUniqueViolation(error: unknown): boolean {
  const code = (e: unknown) => (e as { code?: unknown } | null)?.code;
  return code(error) === "23505" || code((error as { cause?: unknown } | null)?.cause) === "23505";
}

/**
 * The columns to store for a form's values. The HTML is sanitised on every save, so what is stored is
 * what visitors get; content that is nothing but unsafe markup is refused rather than saved empty.
 */
function pageColumns(values: PageValues): PageColumns {
  const content = sanitizePageHtml(values.content);
  if (!content) {
    const message = "Content is required: nothing is left once unsafe HTML such as scripts is removed.";
    throw new ValidationError(message, [{ path: "content", message }]);
  }
  return {
    title: values.title,
    slug: values.slug,
    content,
    ...(values.isActive === undefined ? {} : { isActive: values.isActive }),
    ...(values.seoMeta === undefined ? {} : { seoMeta: toStoredSeoMeta(values.seoMeta) }),
  };
}

async function assertSlugFree(db: Db, slug: string, exceptId?: string) {
  if (await slugTaken(db, slug, exceptId)) throw slugConflict(slug);
}

async function inTransaction<T>(
  db: Database,
  slug: string,
  work: (tx: Transaction) => Promise<T>,
): Promise<T> {
  try {
    return await db.transaction(work);
  } catch (error) {
    throw isUniqueViolation(error) ? slugConflict(slug) : error;
  }
}

// Any text is accepted as an id so a malformed one answers 404 like an unknown one.
const isUuid = (id: string) => z.uuid().safeParse(id).success;

/** One page, drafts included, for editing; 404 PAGE_NOT_FOUND for an unknown or malformed id. */
export async function pageForEditing(db: Database, id: string) {
  const row = isUuid(id) ? await findPage(db, id) : undefined;
  if (!row) throw pageNotFound();
  return row;
}

/** Creates a page from the form's values (sanitised), audited. */
export async function createPage(db: Database, actor: AuditActor, values: PageValues) {
  const columns = pageColumns(values);
  return inTransaction(db, columns.slug, async (tx) => {
    await assertSlugFree(tx, columns.slug);
    // The spec shows both defaults; a new page starts as a draft so nothing half-written goes public
    // by accident. Publishing is an explicit choice (the form's "Active (published)" box).
    const created = await insertPage(tx, columns);
    await recordAudit(tx, actor, {
      action: "create",
      entityType: "page",
      entityId: created.id,
      entityLabel: created.title,
      before: null,
      after: pageSnapshot(created),
    });
    return created;
  });
}

/** Updates a page from the form's values (sanitised); isActive and seoMeta keep theirs when left out. Audited. */
export async function changePage(db: Database, actor: AuditActor, id: string, values: PageValues) {
  if (!isUuid(id)) throw pageNotFound();
  const columns = pageColumns(values);
  return inTransaction(db, columns.slug, async (tx) => {
    const before = await findPage(tx, id, { lock: true });
    if (!before) throw pageNotFound();
    await assertSlugFree(tx, columns.slug, id);
    const after = await updatePage(tx, id, columns);
    if (!after) throw pageNotFound();
    await recordAudit(tx, actor, {
      action: "update",
      entityType: "page",
      entityId: id,
      entityLabel: after.title,
      before: pageSnapshot(before),
      after: pageSnapshot(after),
    });
    return after;
  });
}

/** Deletes a page for good, audited. */
export async function removePage(db: Database, actor: AuditActor, id: string): Promise<void> {
  if (!isUuid(id)) throw pageNotFound();
  await db.transaction(async (tx) => {
    const deleted = await deletePage(tx, id);
    if (!deleted) throw pageNotFound();
    await recordAudit(tx, actor, {
      action: "delete",
      entityType: "page",
      entityId: id,
      entityLabel: deleted.title,
      before: pageSnapshot(deleted),
      after: null,
    });
  });
}
