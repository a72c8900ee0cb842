import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ModerationDecision } from "#domain/moderation";
import { invalidateProducts } from "#web/features/manage-products/api/get-managed-products";
import { moderationQueueKey } from "#web/features/moderation/api/get-moderation-queue";
import { api } from "#web/lib/api";

export const approveListing = (id: string) =>
  api<ModerationDecision>(`/admin/moderation/${encodeURIComponent(id)}/approve`, {
    method: "POST",
    body: {},
  });

export const rejectListing = ({ id, reason }: { id: string; reason: string }) =>
  api<ModerationDecision>(`/admin/moderation/${encodeURIComponent(id)}/reject`, {
    method: "POST",
    body: { reason },
  });

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
