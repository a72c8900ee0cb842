import { useMutation, useQueryClient } from "@tanstack/react-query";
import { sellerWebhooksKey } from "#web/features/seller-webhooks/api/get-webhooks";
import { call } from "#web/lib/api";

/** Deletes an endpoint and its deliveries; answers the endpoints left. */
export const deleteWebhook = (id: string) =>
  call("DELETE /seller-webhooks/endpoints/:id", { params: { id } });

export function useDeleteWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteWebhook,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sellerWebhooksKey }),
  });
}
