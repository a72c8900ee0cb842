import { queryOptions, useQuery } from "@tanstack/react-query";
import type { Page } from "#domain/cms";
import { adminPagesKey } from "#web/features/pages/api/get-admin-pages";
import { api } from "#web/lib/api";

export const adminPageQueryOptions = (id: string) =>
  queryOptions({
    queryKey: [...adminPagesKey, "detail", id],
    queryFn: () => api<{ page: Page }>(`/admin/pages/${encodeURIComponent(id)}`).then((r) => r.page),
  });

/** One page, drafts included, for the edit form. */
export function useAdminPage(id: string) {
  return useQuery(adminPageQueryOptions(id));
}
