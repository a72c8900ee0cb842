import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { PageValues } from "#domain/cms";
import { invalidatePages } from "#web/features/pages/api/invalidate-pages";
import { call } from "#web/lib/api";

export const updatePage = ({ id, values }: { id: string; values: PageValues }) =>
  call("PATCH /admin/pages/:id", { params: { id }, body: values }).then((r) => r.page);

export function useUpdatePage() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updatePage, onSuccess: () => invalidatePages(queryClient) });
}
