import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { PasswordConfirmInput, UserAnswer } from "#domain/accounts";
import { setMe } from "#web/features/account/api/set-me";
import { api } from "#web/lib/api";

export const disableTwoFactor = (input: PasswordConfirmInput) =>
  api<UserAnswer>("/me/two-factor/disable", { method: "POST", body: input }).then((r) => r.user);

export function useDisableTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: disableTwoFactor, onSuccess: (user) => setMe(queryClient, user) });
}
