import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { TwoFactorCodeInput } from "#domain/accounts";
import { meQueryOptions } from "#web/features/auth/api/get-me";
import { call } from "#web/lib/api";

/** The second sign-in step: an authenticator code or a backup code for the pending sign-in. */
export const verifyTwoFactor = (input: TwoFactorCodeInput) => call("POST /auth/two-factor", { body: input });

export function useVerifyTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: verifyTwoFactor,
    onSuccess: ({ user }) => queryClient.setQueryData(meQueryOptions().queryKey, user),
  });
}
