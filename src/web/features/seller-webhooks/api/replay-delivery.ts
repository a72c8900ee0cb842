import { useMutation, useQueryClient } from "@tanstack/react-query";
import { sellerWebhooksKey } from "#web/features/seller-webhooks/api/get-webhooks";
import { call } from "#web/lib/api";

/** Posts a delivery's event again now, with the same id. */
export const replayDelivery = (id: string) =>
  call("POST /seller-webhooks/deliveries/:id/replay", { params: { id } });

export function useReplayDelivery() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: replayDelivery,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sellerWebhooksKey }),
  });
}
