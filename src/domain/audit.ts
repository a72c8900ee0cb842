import { z } from "zod";
import { paged, pageNumber } from "#domain/paging";

export const auditEntityTypes = [
  "product",
  "category",
  "page",
  "content_block",
  "user",
  "fx_rate",
  "order",
  "partner_application",
  "refund",
  "commission",
  "job",
  "bank_transfer",
  "payout",
  "payout_account",
  "fee_rule",
  "tax_rate",
  "review",
  "featured_products",
  "question",
  "storefront",
  "search_synonym",
  "subscription",
  "payment_method",
  "api_key",
  "license",
  "webhook_endpoint",
] as const;
export type AuditEntityType = (typeof auditEntityTypes)[number];

export const auditActions = ["create", "update", "delete", "restore"] as const;
export type AuditAction = (typeof auditActions)[number];

export type AuditChanges = Record<string, { before: unknown; after: unknown }>;

/** Bookkeeping columns that change on every write and say nothing about what the person changed. */
const IGNORED = new Set(["updatedAt", "createdAt", "searchText", "searchName"]);

/** JSON-comparable form of a value: dates as ISO text, so equal instants compare equal. */
function plain(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (value === undefined) return null;
  return value;
}

/**
 * The fields whose values differ between two snapshots of a record, each with its before and after.
 * A created record has `before` null, a deleted one `after` null; every field it has is listed.
 */
export function diffFields(
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
): AuditChanges {
  const changes: AuditChanges = {};
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  for (const key of keys) {
    if (IGNORED.has(key)) continue;
    const was = plain(before?.[key]);
    const now = plain(after?.[key]);
    if (JSON.stringify(was) === JSON.stringify(now)) continue;
    changes[key] = { before: before ? was : null, after: after ? now : null };
  }
  return changes;
}

export const auditQuery = z.object({
  entityType: z.enum(auditEntityTypes, { error: "Unknown entity type" }).optional(),
  action: z.enum(auditActions, { error: "Unknown action" }).optional(),
  actor: z.string().trim().max(200).optional(),
  entityId: z.string().trim().max(100).optional(),
  page: pageNumber,
});
export type AuditQuery = z.output<typeof auditQuery>;

export const auditEntrySchema = z.object({
  id: z.string(),
  actorId: z.string().nullable(),
  actorEmail: z.string(),
  action: z.string(),
  entityType: z.string(),
  entityId: z.string(),
  entityLabel: z.string().nullable(),
  changes: z.record(z.string(), z.object({ before: z.unknown(), after: z.unknown() })),
  createdAt: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/** Audit entries a page: 50, newest first. */
export const AUDIT_PAGE_SIZE = 50;

export const auditListSchema = paged(auditEntrySchema);
export type AuditList = z.infer<typeof auditListSchema>;
