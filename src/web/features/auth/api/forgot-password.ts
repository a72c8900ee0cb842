import { useMutation } from "@tanstack/react-query";
import type { EmailOnlyInput } from "#domain/accounts";
import { call } from "#web/lib/api";

/** E-mails a reset code; the answer is the same whether or not the address has an account. */
export const forgotPassword = (input: EmailOnlyInput) => call("POST /auth/password/forgot", { body: input });

export function useForgotPassword() {
  return useMutation({ mutationFn: forgotPassword });
}
