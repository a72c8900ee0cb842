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
    if (isError) showToast("error", "Failed to load user permissions", { id: "me-error" });
  }, [isError]);
}
