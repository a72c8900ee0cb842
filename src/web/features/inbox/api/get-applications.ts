import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { ApplicationStatus, InboxApplication } from "#domain/inbound";
import type { Paged } from "#domain/paging";
import { api } from "#web/lib/api";

export const applicationsQueryOptions = (page: number, status?: ApplicationStatus) =>
  queryOptions({
    queryKey: ["inbox", "applications", { page, status }],
    queryFn: () => api<Paged<InboxApplication>>("/admin/inbox/applications", { query: { page, status } }),
    placeholderData: keepPreviousData,
  });

export function useApplications(page: number, status?: ApplicationStatus) {
  return useQuery(applicationsQueryOptions(page, status));
}
