import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiKeysQueryOptions } from "#web/features/seller-api/api/get-api-keys";
import { call } from "#web/lib/api";

/** Revokes a key for good: calls with it answer 401 from now on. Answers the list as it now is. */
export const revokeApiKey = (id: string) => call("DELETE /seller-api/keys/:id", { params: { id } });

export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeApiKey,
    onSuccess: (list) => queryClient.setQueryData(apiKeysQueryOptions().queryKey, list),
  });
}
