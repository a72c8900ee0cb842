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

export function setTheme(theme: Theme) {
  themeStore.set(theme);
  applyTheme(theme);
}
