import { useMutation } from "@tanstack/react-query";
import type { ResetPasswordInput } from "#domain/accounts";
import { call } from "#web/lib/api";

export const resetPassword = (input: ResetPasswordInput) =>
  call("POST /auth/password/reset", { body: input });

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}
