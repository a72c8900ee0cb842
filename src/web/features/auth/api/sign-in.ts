import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { SignInInput } from "#domain/accounts";
import { meQueryOptions } from "#web/features/auth/api/get-me";
import { call } from "#web/lib/api";

export const signIn = (input: SignInInput) => call("POST /auth/sign-in", { body: input });

export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signIn,
    onSuccess: (result) => {
      if ("user" in result) queryClient.setQueryData(meQueryOptions().queryKey, result.user);
    },
  });
}
