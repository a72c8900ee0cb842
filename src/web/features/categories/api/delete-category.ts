import { useMutation, useQueryClient } from "@tanstack/react-query";
import { invalidateCategories } from "#web/features/categories/api/get-admin-categories";
import { api } from "#web/lib/api";

export const deleteCategory = (id: string) =>
  api<{ ok: true }>(`/admin/categories/${encodeURIComponent(id)}`, { method: "DELETE" });

export function useDeleteCategory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteCategory,
    onSuccess: () => invalidateCategories(queryClient),
  });
}
