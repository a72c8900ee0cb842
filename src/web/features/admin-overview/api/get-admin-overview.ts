import { queryOptions, useQuery } from "@tanstack/react-query";
import { call } from "#web/lib/api";

export const getAdminOverview = () => call("GET /admin/overview");

/** The admin's start screen: sales figures, the queues waiting for an admin, top products, 30 days. */
export const adminOverviewQueryOptions = () =>
  queryOptions({ queryKey: ["admin", "overview"], queryFn: getAdminOverview });

export function useAdminOverview() {
  return useQuery(adminOverviewQueryOptions());
}
