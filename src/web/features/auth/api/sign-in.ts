import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { SignInInput, SignInResult } from "#domain/accounts";
import { meQueryOptions } from "#web/features/auth/api/get-me";
import { api } from "#web/lib/api";

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
