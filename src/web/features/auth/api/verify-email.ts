import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { VerifyEmailInput, VerifyEmailResult } from "#domain/accounts";
import { meQueryOptions } from "#web/features/auth/api/get-me";
import { api } from "#web/lib/api";

export const verifyEmail = (input: VerifyEmailInput) =>
  api<VerifyEmailResult>("/auth/verify-email", { method: "POST", body: input });

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
