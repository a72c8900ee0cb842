import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { VerifyEmailInput } from "#domain/accounts";
import { meQueryOptions } from "#web/features/auth/api/get-me";
import { call } from "#web/lib/api";

export const verifyEmail = (input: VerifyEmailInput) => call("POST /auth/verify-email", { body: input });

/** In the browser that signed up the code also signs in: the answer's user becomes the cached `me`. */
export function useVerifyEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: verifyEmail,
    onSuccess: (result) => {
      if (result.user) queryClient.setQueryData(meQueryOptions().queryKey, result.user);
    },
  });
}
