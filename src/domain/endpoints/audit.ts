import { auditListSchema, auditQuery } from "#domain/audit";
import { endpoint } from "#domain/endpoint";

/** What the web calls of the server's `audit` module (`src/server/modules/audit/routes.ts`). */
export const auditEndpoints = {
  "GET /admin/audit": endpoint({ query: auditQuery, answer: auditListSchema, errors: [] }),
} as const;
