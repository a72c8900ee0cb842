import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ProfileInput, UserAnswer } from "#domain/accounts";
import { setMe } from "#web/features/account/api/set-me";
import { api } from "#web/lib/api";

export const updateProfile = (input: ProfileInput) =>
  api<UserAnswer>("/me", { method: "PATCH", body: input }).then((r) => r.user);

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateProfile, onSuccess: (user) => setMe(queryClient, user) });
}
