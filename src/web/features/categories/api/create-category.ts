import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { CategoryInput, CreatedCategory } from "#domain/category-admin";
import { invalidateCategories } from "#web/features/categories/api/get-admin-categories";
import { api } from "#web/lib/api";

export const createCategory = (input: CategoryInput) =>
  api<CreatedCategory>("/admin/categories", { method: "POST", body: input }).then((r) => r.category);

export function useCreateCategory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createCategory,
    onSuccess: () => invalidateCategories(queryClient),
  });
}
