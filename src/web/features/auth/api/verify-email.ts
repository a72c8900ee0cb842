import { useMutation } from "@tanstack/react-query";
import type { VerifyEmailInput } from "#domain/accounts";
import { api } from "#web/lib/api";

export const verifyEmail = (input: VerifyEmailInput) =>
  api<{ verified: true }>("/auth/verify-email", { method: "POST", body: input });

export function useVerifyEmail() {
  return useMutation({ mutationFn: verifyEmail });
}
