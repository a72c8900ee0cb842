import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { toast } from "sonner";
import type { Me, PreferencesInput } from "#domain/accounts";
import { setMe } from "#web/features/account/api/set-me";
import { updatePreferences } from "#web/features/account/api/update-preferences";
import { useMe } from "#web/features/auth/api/get-me";
import { currencyStore, onCurrencyChosen } from "#web/features/currency/currency-store";
import { onThemeChosen, showTheme } from "#web/features/theme/theme-store";

/** Shows an account's saved currency and theme; the visitor's own picks elsewhere are left alone. */
export function applyPreferences(preferences: Me["preferences"]) {
  currencyStore.set(preferences.currency);
  if (preferences.theme) showTheme(preferences.theme);
}

/**
 * Mounted once in the root layout. A signed-in user's saved currency and theme are applied when their
 * account loads (on any device); their later picks in the navbar are saved to the account. Anonymous
 * visitors keep their choices in local storage only.
 */
export function usePreferenceSync() {
  const { data: me } = useMe();
  const queryClient = useQueryClient();
  const appliedFor = useRef<string | null>(null);
  const userId = me?.id ?? null;

  useEffect(() => {
    if (!me) {
      appliedFor.current = null;
      return;
    }
    // Once per sign-in: later updates of `me` come from this session's own saves.
    if (appliedFor.current === me.id) return;
    appliedFor.current = me.id;
    applyPreferences(me.preferences);
  }, [me]);

  useEffect(() => {
    if (!userId) return;
    const save = (preferences: PreferencesInput, failure: string) =>
      updatePreferences(preferences).then(
        (user) => setMe(queryClient, user),
        () => toast.error("Error", { description: failure }),
      );
    const stopCurrency = onCurrencyChosen((currency) =>
      save({ currency }, "Failed to save currency preference."),
    );
    const stopTheme = onThemeChosen((theme) => save({ theme }, "Failed to save theme preference."));
    return () => {
      stopCurrency();
      stopTheme();
    };
  }, [userId, queryClient]);
}
