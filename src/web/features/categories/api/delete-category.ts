import { useMutation, useQueryClient } from "@tanstack/react-query";
import { invalidateCategories } from "#web/features/categories/api/get-admin-categories";
import { call } from "#web/lib/api";

export const deleteCategory = (id: string) => call("DELETE /admin/categories/:id", { params: { id } });

export function useDeleteCategory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteCategory,
    onSuccess: () => invalidateCategories(queryClient),
  });
}
