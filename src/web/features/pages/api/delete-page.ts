import { useMutation, useQueryClient } from "@tanstack/react-query";
import { invalidatePages } from "#web/features/pages/api/invalidate-pages";
import { call } from "#web/lib/api";

export const deletePage = (id: string) => call("DELETE /admin/pages/:id", { params: { id } });

export function useDeletePage() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deletePage, onSuccess: () => invalidatePages(queryClient) });
}
