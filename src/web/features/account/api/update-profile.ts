import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ProfileInput } from "#domain/accounts";
import { setMe } from "#web/features/account/api/set-me";
import { call } from "#web/lib/api";

export const updateProfile = (input: ProfileInput) => call("PATCH /me", { body: input }).then((r) => r.user);

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateProfile, onSuccess: (user) => setMe(queryClient, user) });
}
