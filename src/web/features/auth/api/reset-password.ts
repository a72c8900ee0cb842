import { useMutation } from "@tanstack/react-query";
import type { ResetPasswordInput } from "#domain/accounts";
import { api } from "#web/lib/api";

export const resetPassword = (input: ResetPasswordInput) =>
  api<{ reset: true }>("/auth/password/reset", { method: "POST", body: input });

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}
