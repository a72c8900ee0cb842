/*
 * Kept apart from payments.ts (zod schemas, checkout's country and tax-id tables) because the banner that
 * shows it is on every page, so its label must not pull those into the first paint's JavaScript.
 */

/** The marker every screen shows while any method runs in test mode. */
export const TEST_MODE_LABEL = "Test mode — no real payment";
