import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { CategoryInput } from "#domain/category-admin";
import { invalidateCategories } from "#web/features/categories/api/get-admin-categories";
import { call } from "#web/lib/api";

export const createCategory = (input: CategoryInput) =>
  call("POST /admin/categories", { body: input }).then((r) => r.category);

export function useCreateCategory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createCategory,
    onSuccess: () => invalidateCategories(queryClient),
  });
}
