import { useMutation, useQueryClient } from "@tanstack/react-query";
import { sellerWebhooksKey } from "#web/features/seller-webhooks/api/get-webhooks";
import { call } from "#web/lib/api";

/** Posts a `ping` event to an endpoint now; answers its delivery. */
export const sendTestEvent = (id: string) =>
  call("POST /seller-webhooks/endpoints/:id/test", { params: { id } });

export function useSendTestEvent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendTestEvent,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sellerWebhooksKey }),
  });
}
