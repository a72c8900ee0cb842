import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { PageValues } from "#domain/cms";
import { invalidatePages } from "#web/features/pages/api/invalidate-pages";
import { call } from "#web/lib/api";

export const createPage = (values: PageValues) =>
  call("POST /admin/pages", { body: values }).then((r) => r.page);

export function useCreatePage() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createPage, onSuccess: () => invalidatePages(queryClient) });
}
