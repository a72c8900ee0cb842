import { adminOverviewSchema } from "#domain/admin-overview";
import { endpoint } from "#domain/endpoint";

export const adminOverviewEndpoints = {
  "GET /admin/overview": endpoint({ answer: adminOverviewSchema, errors: [] }),
} as const;
