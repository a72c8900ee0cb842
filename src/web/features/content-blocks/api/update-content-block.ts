import { useMutation, useQueryClient } from "@tanstack/react-query";
import { adminContentBlocksKey } from "#web/features/content-blocks/api/get-admin-content-blocks";
import { contentBlocksQueryOptions } from "#web/features/content-blocks/api/get-content-blocks";
import { call } from "#web/lib/api";

export const updateContentBlock = ({ key, content }: { key: string; content: string }) =>
  call("PUT /admin/content-blocks/:key", { params: { key }, body: { content } }).then((r) => r.block);

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
