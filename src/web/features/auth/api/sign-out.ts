import { useMutation } from "@tanstack/react-query";
import { paths } from "#domain/routes";
import { call } from "#web/lib/api";

export const signOut = () => call("POST /auth/sign-out");

/**
 * Ends the session on the server, then loads the app afresh at home: nothing of the account stays in
 * memory, and no guarded screen sees the user vanish and bounce to /login on the way out. A failed
 * request is only logged; this browser is signed out either way (the cookie is cleared by the server
 * or expires with a session that no longer exists).
 */
export function useSignOut() {
  return useMutation({
    mutationFn: () =>
      signOut().catch((error: unknown) =>
        console.warn("Sign-out request failed; signing out here anyway", error),
      ),
    onSettled: () => window.location.assign(paths.home()),
  });
}
