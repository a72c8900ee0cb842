import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { SellerApiKeyInput } from "#domain/seller-api";
import { sellerApiKey } from "#web/features/seller-api/api/get-api-keys";
import { call } from "#web/lib/api";

/** Makes a key with a name and scopes; answers it with its whole secret, the only time it is shown. */
export const createApiKey = (input: SellerApiKeyInput) => call("POST /seller-api/keys", { body: input });

export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createApiKey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sellerApiKey }),
  });
}
