import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ContentBlock } from "#domain/cms";
import { adminContentBlocksKey } from "#web/features/content-blocks/api/get-admin-content-blocks";
import { contentBlocksQueryOptions } from "#web/features/content-blocks/api/get-content-blocks";
import { api } from "#web/lib/api";

export const updateContentBlock = ({ key, content }: { key: string; content: string }) =>
  api<{ block: ContentBlock }>(`/admin/content-blocks/${encodeURIComponent(key)}`, {
    method: "PUT",
    body: { content },
  }).then((r) => r.block);

/** Saves a block's text; the admin list and the texts the site shows reload afterwards. */
export function useUpdateContentBlock() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateContentBlock,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminContentBlocksKey }),
        queryClient.invalidateQueries({ queryKey: contentBlocksQueryOptions().queryKey }),
      ]),
  });
}
