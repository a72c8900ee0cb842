import { useMutation } from "@tanstack/react-query";
import type { PasswordConfirmInput } from "#domain/accounts";
import { call } from "#web/lib/api";

export const enableTwoFactor = (input: PasswordConfirmInput) =>
  call("POST /me/two-factor/enable", { body: input });

export function useEnableTwoFactor() {
  return useMutation({ mutationFn: enableTwoFactor });
}
