import { type QueryClient, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import type { Me, PreferencesInput } from "#domain/accounts";
import { setMe } from "#web/features/account/api/set-me";
import { updatePreferences } from "#web/features/account/api/update-preferences";
import { useMe } from "#web/features/auth/api/get-me";
import { currencyStore, onCurrencyChosen } from "#web/features/currency/currency-store";
import { onThemeChosen, showTheme } from "#web/features/theme/theme-store";
import { runMutation } from "#web/lib/mutation";

/** Shows an account's saved currency and theme; the visitor's own picks elsewhere are left alone. */
export function applyPreferences(preferences: Me["preferences"]) {
  currencyStore.set(preferences.currency);
  if (preferences.theme) showTheme(preferences.theme);
}

/** Saves one picked preference to the account; a failure says which choice was not kept. */
function savePreference(queryClient: QueryClient, preferences: PreferencesInput) {
  const failure = preferences.currency
    ? "Failed to save currency preference."
    : "Failed to save theme preference.";
  return runMutation(updatePreferences(preferences), {
    error: { title: "Error", description: failure },
  }).then((result) => result.ok && setMe(queryClient, result.data));
}

/**
 * Mounted once in the root layout. A signed-in user's saved currency and theme are applied when their
 * account loads (on any device); their later picks in the navbar are saved to the account. A pick made
 * while the account is still loading (right after a page load) wins over the saved value and is saved
 * once the account is known. Anonymous visitors keep their choices in local storage only.
 */
export function usePreferenceSync() {
  const { data: me, isPending } = useMe();
  const queryClient = useQueryClient();
  const appliedFor = useRef<string | null>(null);
  const account = useRef<{ userId: string | null; loading: boolean }>({ userId: null, loading: true });
  const picksWhileLoading = useRef<PreferencesInput>({});
  account.current = { userId: me?.id ?? null, loading: isPending };

  useEffect(() => {
    const pick = (preferences: PreferencesInput) => {
      if (account.current.userId) void savePreference(queryClient, preferences);
      else if (account.current.loading) Object.assign(picksWhileLoading.current, preferences);
    };
    const stopCurrency = onCurrencyChosen((currency) => pick({ currency }));
    const stopTheme = onThemeChosen((theme) => pick({ theme }));
    return () => {
      stopCurrency();
      stopTheme();
    };
  }, [queryClient]);

  useEffect(() => {
    if (!me) {
      appliedFor.current = null;
      if (!isPending) picksWhileLoading.current = {};
      return;
    }
    // Once per sign-in: later updates of `me` come from this session's own saves.
    if (appliedFor.current === me.id) return;
    appliedFor.current = me.id;
    const picked = picksWhileLoading.current;
    picksWhileLoading.current = {};
    applyPreferences({ ...me.preferences, ...picked });
    if (picked.currency) void savePreference(queryClient, { currency: picked.currency });
    if (picked.theme) void savePreference(queryClient, { theme: picked.theme });
  }, [me, isPending, queryClient]);
}
