import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { SellerWebhookUpdate } from "#domain/seller-webhooks";
import { sellerWebhooksKey } from "#web/features/seller-webhooks/api/get-webhooks";
import { call } from "#web/lib/api";

/** Changes an endpoint's URL, description or events, or turns it on or off. */
export const updateWebhook = ({ id, ...body }: SellerWebhookUpdate & { id: string }) =>
  call("PATCH /seller-webhooks/endpoints/:id", { params: { id }, body });

export function useUpdateWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateWebhook,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sellerWebhooksKey }),
  });
}
