import { queryOptions, useQuery } from "@tanstack/react-query";
import type { AdminOverview } from "#domain/admin-overview";
import { api } from "#web/lib/api";

export const getAdminOverview = () => api<AdminOverview>("/admin/overview");

/** The admin's start screen: sales figures, the queues waiting for an admin, top products, 30 days. */
export const adminOverviewQueryOptions = () =>
  queryOptions({ queryKey: ["admin", "overview"], queryFn: getAdminOverview });

export function useAdminOverview() {
  return useQuery(adminOverviewQueryOptions());
}
