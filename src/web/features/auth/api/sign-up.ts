import { useMutation } from "@tanstack/react-query";
import type { SignUpInput } from "#domain/accounts";
import { call } from "#web/lib/api";

/** Creates an unverified account and e-mails it a 6-digit code. */
export const signUp = (input: SignUpInput) => call("POST /auth/sign-up", { body: input });

export function useSignUp() {
  return useMutation({ mutationFn: signUp });
}
