import { useMutation } from "@tanstack/react-query";
import type { CodeSent, EmailOnlyInput } from "#domain/accounts";
import { api } from "#web/lib/api";

/** E-mails a new verification code; the previous one stops working. */
export const sendVerificationCode = (input: EmailOnlyInput) =>
  api<CodeSent>("/auth/verification-code", { method: "POST", body: input });

export function useSendVerificationCode() {
  return useMutation({ mutationFn: sendVerificationCode });
}
