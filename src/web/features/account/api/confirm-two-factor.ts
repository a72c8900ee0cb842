import { useMutation, useQueryClient } from "@tanstack/react-query";
import { setMe } from "#web/features/account/api/set-me";
import { call } from "#web/lib/api";

export const confirmTwoFactor = (input: { code: string }) =>
  call("POST /me/two-factor/confirm", { body: input }).then((r) => r.user);

export function useConfirmTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: confirmTwoFactor, onSuccess: (user) => setMe(queryClient, user) });
}
