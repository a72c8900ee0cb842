import { ApiError } from "#web/lib/api";
import { showToast } from "#web/lib/lazy-toast";

const UNEXPECTED = "An unexpected error occurred. Please try again.";

export type ErrorTextOptions = {
  /** What to say when the error is not one whose own message is shown. */
  fallback?: string;
  /**
   * Which errors show their own message. Unset: every error (the server's message, or the network one).
   * "client": API errors of the 4xx family, the ones the server words for people. A list: these API codes.
   */
  show?: "client" | readonly string[];
};

/** The words an error toast gives for `error`: the server's explanation when it is meant for people, else `fallback`. */
export function errorText(error: unknown, { fallback = UNEXPECTED, show }: ErrorTextOptions = {}): string {
  if (show === undefined) return error instanceof Error ? error.message : fallback;
  if (!(error instanceof ApiError)) return fallback;
  const shown = show === "client" ? error.status >= 400 && error.status < 500 : show.includes(error.code);
  return shown ? error.message : fallback;
}

export type ErrorToast = ErrorTextOptions & {
  title: string;
  /** "title": the text follows the title ("Failed to delete page: …") instead of being its description. */
  placement?: "description" | "title";
};

/** The one error toast: a title from the spec, the text from `errorText`. */
export function toastError(error: unknown, { title, placement = "description", ...options }: ErrorToast) {
  const text = errorText(error, options);
  if (placement === "title") showToast("error", `${title}: ${text}`);
  else showToast("error", title, { description: text });
}

export type SuccessToast = { title: string; description?: string };

/**
 * The one way a screen runs a mutation it reports: awaits it (so forms stay "submitting" and the toast
 * still shows if the row that asked disappears), shows the success toast or the error toast, and tells the
 * caller which happened so it can close a dialog, reset a form or mark a field.
 */
export async function runMutation<T>(
  mutation: Promise<T>,
  { success, error: errorToast }: { success?: SuccessToast | ((data: T) => SuccessToast); error: ErrorToast },
): Promise<{ ok: true; data: T } | { ok: false; error: unknown }> {
  try {
    const data = await mutation;
    if (success) {
      const { title, description } = typeof success === "function" ? success(data) : success;
      showToast("success", title, { description });
    }
    return { ok: true, data };
  } catch (error) {
    toastError(error, errorToast);
    return { ok: false, error };
  }
}
