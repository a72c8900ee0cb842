import { useMutation } from "@tanstack/react-query";
import type { EmailOnlyInput } from "#domain/accounts";
import { call } from "#web/lib/api";

/** E-mails a new verification code; the previous one stops working. */
export const sendVerificationCode = (input: EmailOnlyInput) =>
  call("POST /auth/verification-code", { body: input });

export function useSendVerificationCode() {
  return useMutation({ mutationFn: sendVerificationCode });
}
