import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { AdminCategory, CategoryInput } from "#domain/category-admin";
import { invalidateCategories } from "#web/features/categories/api/get-admin-categories";
import { api } from "#web/lib/api";

export const createCategory = (input: CategoryInput) =>
  api<{ category: AdminCategory }>("/admin/categories", { method: "POST", body: input }).then(
    (r) => r.category,
  );

export function useCreateCategory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createCategory,
    onSuccess: () => invalidateCategories(queryClient),
  });
}
