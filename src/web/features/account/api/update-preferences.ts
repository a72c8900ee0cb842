import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { PreferencesInput } from "#domain/accounts";
import { setMe } from "#web/features/account/api/set-me";
import { call } from "#web/lib/api";

export const updatePreferences = (input: PreferencesInput) =>
  call("PATCH /me/preferences", { body: input }).then((r) => r.user);

export function useUpdatePreferences() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updatePreferences, onSuccess: (user) => setMe(queryClient, user) });
}
