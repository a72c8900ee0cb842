import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { ApplicationStatus } from "#domain/inbound";
import { call } from "#web/lib/api";

export const applicationsQueryOptions = (page: number, status?: ApplicationStatus) =>
  queryOptions({
    queryKey: ["inbox", "applications", { page, status }],
    queryFn: () => call("GET /admin/inbox/applications", { query: { page, status } }),
    placeholderData: keepPreviousData,
  });

export function useApplications(page: number, status?: ApplicationStatus) {
  return useQuery(applicationsQueryOptions(page, status));
}
