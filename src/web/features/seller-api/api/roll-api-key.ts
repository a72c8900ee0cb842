import { useMutation, useQueryClient } from "@tanstack/react-query";
import { sellerApiKey } from "#web/features/seller-api/api/get-api-keys";
import { call } from "#web/lib/api";

/** Gives a key a new secret (same prefix, name and scopes); the old one stops working at once. */
export const rollApiKey = (id: string) => call("POST /seller-api/keys/:id/roll", { params: { id } });

export function useRollApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: rollApiKey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sellerApiKey }),
  });
}
