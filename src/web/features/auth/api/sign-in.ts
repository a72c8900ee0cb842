import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Me, SignInInput } from "#domain/accounts";
import { meQueryOptions } from "#web/features/auth/api/get-me";
import { api } from "#web/lib/api";

/** Either the session has started, or the account has two-factor on and the code is asked next. */
export type SignInResult = { user: Me } | { twoFactorRequired: true };

export const signIn = (input: SignInInput) =>
  api<SignInResult>("/auth/sign-in", { method: "POST", body: input });

export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signIn,
    onSuccess: (result) => {
      if ("user" in result) queryClient.setQueryData(meQueryOptions().queryKey, result.user);
    },
  });
}
