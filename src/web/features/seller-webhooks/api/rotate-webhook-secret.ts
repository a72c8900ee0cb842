import { useMutation, useQueryClient } from "@tanstack/react-query";
import { sellerWebhooksKey } from "#web/features/seller-webhooks/api/get-webhooks";
import { call } from "#web/lib/api";

/** Makes a new signing secret; the old one signs beside it for the overlap. */
export const rotateWebhookSecret = (id: string) =>
  call("POST /seller-webhooks/endpoints/:id/rotate", { params: { id } });

export function useRotateWebhookSecret() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: rotateWebhookSecret,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sellerWebhooksKey }),
  });
}
