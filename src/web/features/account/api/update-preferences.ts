import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { PreferencesInput, UserAnswer } from "#domain/accounts";
import { setMe } from "#web/features/account/api/set-me";
import { api } from "#web/lib/api";

export const updatePreferences = (input: PreferencesInput) =>
  api<UserAnswer>("/me/preferences", { method: "PATCH", body: input }).then((r) => r.user);

export function useUpdatePreferences() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updatePreferences, onSuccess: (user) => setMe(queryClient, user) });
}
