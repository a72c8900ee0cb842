import { useEffect } from "react";
import { useMe } from "#web/features/auth/api/get-me";
import { showToast } from "#web/lib/lazy-toast";

/**
 * Tells the visitor once when their account could not be loaded (visitors get `{ user: null }`, so an
 * error here is a real fault): the navigation then shows the signed-out entries.
 */
export function useMeErrorToast() {
  const { isError } = useMe();
  useEffect(() => {
    // Not `reportError`: the spec's toast is this title alone, and it reports a read, not a mutation.
    if (isError) showToast("error", "Failed to load user permissions", { id: "me-error" });
  }, [isError]);
}
