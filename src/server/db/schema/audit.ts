import { index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import type { AuditChanges } from "#domain/audit";
import { user } from "#server/db/schema/auth";

/**
 * Who changed what and when: one row per admin, seller or super-admin mutation, with the before and
 * after of each changed field. The actor's e-mail is copied so the trail survives the account.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: uuid().primaryKey().defaultRandom(),
    actorId: text().references(() => user.id, { onDelete: "set null" }),
    actorEmail: text().notNull(),
    action: text().notNull(),
    entityType: text().notNull(),
    entityId: text().notNull(),
    /** A readable name for the entity at the time (product name, page title, e-mail...). */
    entityLabel: text(),
    changes: jsonb().$type<AuditChanges>().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index().on(t.createdAt),
    index().on(t.entityType, t.createdAt),
    index().on(t.actorId, t.createdAt),
    index().on(t.entityId),
  ],
);
