import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { ApplicationStatus, InboxApplication, InboxPage } from "#domain/inbound";
import { api } from "#web/lib/api";

export const applicationsQueryOptions = (page: number, status?: ApplicationStatus) =>
  queryOptions({
    queryKey: ["inbox", "applications", { page, status }],
    queryFn: () => api<InboxPage<InboxApplication>>("/admin/inbox/applications", { query: { page, status } }),
    placeholderData: keepPreviousData,
  });

export function useApplications(page: number, status?: ApplicationStatus) {
  return useQuery(applicationsQueryOptions(page, status));
}
