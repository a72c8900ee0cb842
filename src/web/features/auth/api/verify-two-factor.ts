import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { TwoFactorCodeInput, UserAnswer } from "#domain/accounts";
import { meQueryOptions } from "#web/features/auth/api/get-me";
import { api } from "#web/lib/api";

/** The second sign-in step: an authenticator code or a backup code for the pending sign-in. */
export const verifyTwoFactor = (input: TwoFactorCodeInput) =>
  api<UserAnswer>("/auth/two-factor", { method: "POST", body: input });

export function useVerifyTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: verifyTwoFactor,
    onSuccess: ({ user }) => queryClient.setQueryData(meQueryOptions().queryKey, user),
  });
}
