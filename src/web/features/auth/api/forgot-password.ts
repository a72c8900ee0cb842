import { useMutation } from "@tanstack/react-query";
import type { CodeSent, EmailOnlyInput } from "#domain/accounts";
import { api } from "#web/lib/api";

/** E-mails a reset code; the answer is the same whether or not the address has an account. */
export const forgotPassword = (input: EmailOnlyInput) =>
  api<CodeSent>("/auth/password/forgot", { method: "POST", body: input });

export function useForgotPassword() {
  return useMutation({ mutationFn: forgotPassword });
}
