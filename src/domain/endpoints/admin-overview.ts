import { adminOverviewSchema } from "#domain/admin-overview";
import { endpoint } from "#domain/endpoint";

/** What the web calls of the server's `admin-overview` module (`src/server/modules/admin-overview/routes.ts`). */
export const adminOverviewEndpoints = {
  "GET /admin/overview": endpoint({ answer: adminOverviewSchema, errors: [] }),
} as const;
