import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { PasswordConfirmInput } from "#domain/accounts";
import { setMe } from "#web/features/account/api/set-me";
import { call } from "#web/lib/api";

export const disableTwoFactor = (input: PasswordConfirmInput) =>
  call("POST /me/two-factor/disable", { body: input }).then((r) => r.user);

export function useDisableTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: disableTwoFactor, onSuccess: (user) => setMe(queryClient, user) });
}
