import { runMutation, type SuccessToast } from "#web/lib/mutation";

/**
 * Copies `value` and says so with `success`. A browser that refuses (no permission, no secure context,
 * no clipboard at all) gets the one error toast, asking to select the `what` and copy it by hand.
 */
export function copyText(value: string, success: SuccessToast, what: string) {
  return runMutation(
    Promise.resolve().then(() => navigator.clipboard.writeText(value)),
    { success, error: { title: "Copy failed", description: `Select the ${what} and copy it by hand.` } },
  );
}
