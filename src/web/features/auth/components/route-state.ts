import type { Location } from "react-router";

/** What sign-up (or login, for an unverified address) hands the verify screen; `from` as in LoginState. */
export type VerifyState = { email?: string; codeSent?: boolean; from?: Location };

/** What reaches the login screen: a guard's original location, or a message and address after a step. */
export type LoginState = { from?: Location; message?: string; email?: string };

/** Reads navigation state defensively: it survives reloads and can be anything a past version left. */
export function readState<T extends object>(state: unknown): Partial<T> {
  return state && typeof state === "object" ? (state as Partial<T>) : {};
}

const SAME_SITE = "https://stackbay.invalid";

/**
 * Where to go after signing in: the guarded page the visitor was sent away from, as a same-site path, or
 * `fallback`. The path is read as a browser reads an address, so "//host", "/\\host" and a tab or
 * newline inside "//" (which a browser drops) cannot lead to another site.
 */
export function returnPath(from: Partial<Location> | undefined, fallback: string) {
  const path = `${from?.pathname ?? ""}${from?.search ?? ""}${from?.hash ?? ""}`;
  if (!path.startsWith("/")) return fallback;
  try {
    const url = new URL(path, SAME_SITE);
    return url.origin === SAME_SITE ? `${url.pathname}${url.search}${url.hash}` : fallback;
  } catch {
    return fallback;
  }
}
