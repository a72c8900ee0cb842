/*
 * Kept apart from accounts.ts (which builds zod schemas) so the theme store, read before the first paint,
 * does not load zod.
 */

/** "system" follows the device's light or dark setting (prefers-color-scheme), live. */
export const themes = ["light", "dark", "system"] as const;
