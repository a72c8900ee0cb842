import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Page, PageValues } from "#domain/cms";
import { invalidatePages } from "#web/features/pages/api/invalidate-pages";
import { api } from "#web/lib/api";

export const updatePage = ({ id, values }: { id: string; values: PageValues }) =>
  api<{ page: Page }>(`/admin/pages/${encodeURIComponent(id)}`, { method: "PATCH", body: values }).then(
    (r) => r.page,
  );

export function useUpdatePage() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updatePage, onSuccess: () => invalidatePages(queryClient) });
}
