import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { AuditAction, AuditEntityType } from "#domain/audit";
import { call } from "#web/lib/api";

export type AuditFilter = {
  entityType?: AuditEntityType;
  action?: AuditAction;
  actor?: string;
  entityId?: string;
  page: number;
};

export const getAuditLog = (filter: AuditFilter) => call("GET /admin/audit", { query: filter });

/** The prefix of every audit page's key; screens that write audited changes invalidate it. */
export const auditLogKey = ["admin", "audit"] as const;

export const auditLogQueryOptions = (filter: AuditFilter) =>
  queryOptions({
    queryKey: [...auditLogKey, filter],
    queryFn: () => getAuditLog(filter),
    placeholderData: keepPreviousData,
  });

export function useAuditLog(filter: AuditFilter) {
  return useQuery(auditLogQueryOptions(filter));
}
