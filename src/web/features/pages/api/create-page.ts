import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Page, PageValues } from "#domain/cms";
import { invalidatePages } from "#web/features/pages/api/invalidate-pages";
import { api } from "#web/lib/api";

export const createPage = (values: PageValues) =>
  api<{ page: Page }>("/admin/pages", { method: "POST", body: values }).then((r) => r.page);

export function useCreatePage() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createPage, onSuccess: () => invalidatePages(queryClient) });
}
