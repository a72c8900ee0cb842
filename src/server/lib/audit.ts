import { type AuditAction, type AuditEntityType, diffFields } from "#domain/audit";
import type { Database } from "#server/db/client";
import { auditLog } from "#server/db/schema/audit";

/** A database or an open transaction: audit rows are written in the same transaction as the change. */
export type Writer = Pick<Database, "insert">;

export type AuditActor = { id: string; email: string };

export type AuditRecord = {
  action: AuditAction;
  entityType: AuditEntityType;
  entityId: string;
  entityLabel?: string | null;
  /** The record before the change (null when created) and after it (null when deleted). */
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
};

/**
 * Writes one audit entry with the before/after of each changed field. An update that changed nothing
 * writes nothing, so the trail holds only real changes.
 */
export async function recordAudit(db: Writer, actor: AuditActor, record: AuditRecord): Promise<void> {
  const changes = diffFields(record.before, record.after);
  if (record.action === "update" && Object.keys(changes).length === 0) return;
  await db.insert(auditLog).values({
    actorId: actor.id,
    actorEmail: actor.email,
    action: record.action,
    entityType: record.entityType,
    entityId: record.entityId,
    entityLabel: record.entityLabel ?? null,
    changes,
  });
}
