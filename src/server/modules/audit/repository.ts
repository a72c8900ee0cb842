import { and, count, desc, eq, ilike, type SQL } from "drizzle-orm";
import { AUDIT_PAGE_SIZE, type AuditQuery } from "#domain/audit";
import type { Db } from "#server/db/client";
import { auditLog } from "#server/db/schema/audit";
import { containsPattern, escapeLike } from "#server/lib/like";

/**
 * One page of audit entries, newest first. Filters: entityType and action exactly, actor as part of the
 * actor's e-mail, entityId as the id or its beginning; LIKE wildcards typed by a person match literally.
 */
export async function listAuditEntries(db: Db, query: AuditQuery) {
  const { entityType, action, actor, entityId, page } = query;
  const conditions: SQL[] = [];
  if (entityType) conditions.push(eq(auditLog.entityType, entityType));
  if (action) conditions.push(eq(auditLog.action, action));
  if (actor) conditions.push(ilike(auditLog.actorEmail, containsPattern(actor)));
  if (entityId) conditions.push(ilike(auditLog.entityId, `${escapeLike(entityId)}%`));
  const where = conditions.length > 0 ? and(...conditions) : undefined;
  const [rows, [counted]] = await Promise.all([
    db
      .select()
      .from(auditLog)
      .where(where)
      .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
      .limit(AUDIT_PAGE_SIZE)
      .offset((page - 1) * AUDIT_PAGE_SIZE),
    db.select({ n: count() }).from(auditLog).where(where),
  ]);
  return {
    items: rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })),
    total: counted?.n ?? 0,
    page,
    pageSize: AUDIT_PAGE_SIZE,
  };
}
