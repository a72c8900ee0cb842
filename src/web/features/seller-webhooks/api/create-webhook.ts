import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { SellerWebhookInput } from "#domain/seller-webhooks";
import { sellerWebhooksKey } from "#web/features/seller-webhooks/api/get-webhooks";
import { call } from "#web/lib/api";

/** Registers an endpoint; answers it with its signing secret, the only time it is shown. */
export const createWebhook = (input: SellerWebhookInput) =>
  call("POST /seller-webhooks/endpoints", { body: input });

export function useCreateWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createWebhook,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sellerWebhooksKey }),
  });
}
