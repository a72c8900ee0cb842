import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { UserAnswer } from "#domain/accounts";
import { setMe } from "#web/features/account/api/set-me";
import { api } from "#web/lib/api";

export const confirmTwoFactor = (input: { code: string }) =>
  api<UserAnswer>("/me/two-factor/confirm", { method: "POST", body: input }).then((r) => r.user);

export function useConfirmTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: confirmTwoFactor, onSuccess: (user) => setMe(queryClient, user) });
}
