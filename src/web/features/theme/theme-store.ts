import { useSyncExternalStore } from "react";
import type { Theme } from "#domain/accounts";
import { themes } from "#domain/themes";
import { createLocalStore } from "#web/lib/local-store";

export type { Theme };

/** Stored under "theme" as the spec says; public/theme-init.js reads the same key before first paint. */
export const themeStore = createLocalStore<Theme>(
  "theme",
  (raw) => themes.find((theme) => theme === raw) ?? "light",
  (theme) => theme,
);

const DARK_QUERY = "(prefers-color-scheme: dark)";
const darkQuery = () => (typeof window === "undefined" ? null : window.matchMedia?.(DARK_QUERY));

/** What "system" means right now on this device. */
export function resolveTheme(theme: Theme): "light" | "dark" {
  if (theme !== "system") return theme;
  return darkQuery()?.matches ? "dark" : "light";
}

export function applyTheme(theme: Theme) {
  document.documentElement.classList.toggle("dark", resolveTheme(theme) === "dark");
}

// "System" follows the device live: when it switches between light and dark, so does the page.
darkQuery()?.addEventListener("change", () => {
  if (themeStore.get() === "system") applyTheme("system");
});

const subscribeToDevice = (listener: () => void) => {
  const query = darkQuery();
  query?.addEventListener("change", listener);
  return () => query?.removeEventListener("change", listener);
};

/** The light or dark actually shown: the stored choice, with "system" resolved and followed live. */
export function useResolvedTheme(): "light" | "dark" {
  const theme = themeStore.use();
  const deviceDark = useSyncExternalStore(
    subscribeToDevice,
    () => darkQuery()?.matches ?? false,
    () => false,
  );
  return theme === "system" ? (deviceDark ? "dark" : "light") : theme;
}

const chosenListeners = new Set<(theme: Theme) => void>();

/** Told of each theme the visitor switches to with setTheme; returns the unsubscribe. */
export function onThemeChosen(listener: (theme: Theme) => void) {
  chosenListeners.add(listener);
  return () => {
    chosenListeners.delete(listener);
  };
}

/** Stores and shows a theme without telling onThemeChosen listeners (for a value that came from the account). */
export function showTheme(theme: Theme) {
  themeStore.set(theme);
  applyTheme(theme);
}

/** The visitor's own switch. */
export function setTheme(theme: Theme) {
  showTheme(theme);
  for (const listener of chosenListeners) listener(theme);
}
