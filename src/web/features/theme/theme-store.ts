import { createLocalStore } from "#web/lib/local-store";

export type Theme = "light" | "dark";

/** Stored under "theme" as the spec says; public/theme-init.js reads the same key before first paint. */
export const themeStore = createLocalStore<Theme>(
  "theme",
  (raw) => (raw === "dark" ? "dark" : "light"),
  (theme) => theme,
);

export function applyTheme(theme: Theme) {
  document.documentElement.classList.toggle("dark", theme === "dark");
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
