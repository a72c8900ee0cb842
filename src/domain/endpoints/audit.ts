import { auditListSchema, auditQuery } from "#domain/audit";
import { endpoint } from "#domain/endpoint";

export const auditEndpoints = {
  "GET /admin/audit": endpoint({ query: auditQuery, answer: auditListSchema, errors: [] }),
} as const;
