import { queryOptions, useQuery } from "@tanstack/react-query";
import { adminPagesKey } from "#web/features/pages/api/get-admin-pages";
import { call } from "#web/lib/api";

export const adminPageQueryOptions = (id: string) =>
  queryOptions({
    queryKey: [...adminPagesKey, "detail", id],
    queryFn: () => call("GET /admin/pages/:id", { params: { id } }).then((r) => r.page),
  });

/** One page, drafts included, for the edit form. */
export function useAdminPage(id: string) {
  return useQuery(adminPageQueryOptions(id));
}
