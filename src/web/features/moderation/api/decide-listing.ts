import { useMutation, useQueryClient } from "@tanstack/react-query";
import { invalidateProducts } from "#web/features/manage-products/api/get-managed-products";
import { moderationQueueKey } from "#web/features/moderation/api/get-moderation-queue";
import { call } from "#web/lib/api";

export const approveListing = (id: string) => call("POST /admin/moderation/:id/approve", { params: { id } });

export const rejectListing = ({ id, reason }: { id: string; reason: string }) =>
  call("POST /admin/moderation/:id/reject", { params: { id }, body: { reason } });

/** Approve or reject; the queue, the catalogue and product management lists reload. */
export function useDecideListing() {
  const queryClient = useQueryClient();
  const reload = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: moderationQueueKey }),
      invalidateProducts(queryClient),
    ]);
  return {
    approve: useMutation({ mutationFn: approveListing, onSuccess: reload }),
    reject: useMutation({ mutationFn: rejectListing, onSuccess: reload }),
  };
}
