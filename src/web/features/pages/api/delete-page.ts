import { useMutation, useQueryClient } from "@tanstack/react-query";
import { invalidatePages } from "#web/features/pages/api/invalidate-pages";
import { api } from "#web/lib/api";

export const deletePage = (id: string) =>
  api<{ ok: true }>(`/admin/pages/${encodeURIComponent(id)}`, { method: "DELETE" });

export function useDeletePage() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deletePage, onSuccess: () => invalidatePages(queryClient) });
}
