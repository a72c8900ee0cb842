try {
  const theme = localStorage.getItem("theme");
  // "system" follows the device; theme-store.ts keeps following it once the app has loaded.
  if (theme === "dark" || (theme === "system" && matchMedia("(prefers-color-scheme: dark)").matches))
    document.documentElement.classList.add("dark");
} catch {
  /* storage blocked: keep the light default */
}
