import type { ErrorCode } from "#domain/error-codes";
import { ApiError } from "#web/lib/api";
import { showToast } from "#web/lib/lazy-toast";

const UNEXPECTED = "An unexpected error occurred. Please try again.";

export type ErrorTextOptions = {
  /** What to say when the error is not one whose own message is shown. */
  fallback?: string;
  /**
   * Which errors show their own message. Unset: every error (the server's message, or the network one).
   * "api": every API error (the server's words, or the network one), not a fault of the page's own code.
   * "client": API errors of the 4xx family, the ones the server words for people. A list: these API codes.
   */
  show?: "api" | "client" | readonly ErrorCode[];
};

/** The words an error toast gives for `error`: the server's explanation when it is meant for people, else `fallback`. */
export function errorText(error: unknown, { fallback = UNEXPECTED, show }: ErrorTextOptions = {}): string {
  if (show === undefined) return error instanceof Error ? error.message : fallback;
  if (!(error instanceof ApiError)) return fallback;
  const shown =
    show === "api"
      ? true
      : show === "client"
        ? error.status >= 400 && error.status < 500
        : show.includes(error.code);
  return shown ? error.message : fallback;
}

export type ErrorToast = ErrorTextOptions & {
  title: string;
  /** The spec's own words for this failure, given instead of the error's. */
  description?: string;
  /** "title": the text follows the title ("Failed to delete page: …") instead of being its description. */
  placement?: "description" | "title";
  /** A fixed toast id: the same failure reported again (a remount) replaces its toast instead of stacking. */
  id?: string;
};

/** The one error toast: a title from the spec, the text from `errorText` (or the toast's own `description`). */
export function toastError(
  error: unknown,
  { title, description, placement = "description", id, ...options }: ErrorToast,
) {
  const text = description ?? errorText(error, options);
  if (placement === "title") showToast("error", `${title}: ${text}`, { id });
  else showToast("error", title, { description: text, id });
}

/** A problem a form finds before anything is sent (an empty field): the same error toast, with the spec's words. */
export function toastInvalid(title: string, description: string) {
  toastError(null, { title, description });
}

/**
 * What a screen does on an API error, chosen by its code (a `switch` on `error.code`, never on its
 * words): a step of its own (mark a field, go back a step, keep the server's details), then the toast to
 * show; null for none, undefined (a code it does not handle) for the screen's fallback toast.
 */
export type OnApiError = (error: ApiError) => ErrorToast | null | undefined;

/** The toast a failure gets: the one `on` answers for an API error, else `fallback` (network faults and bugs too). */
export function errorToastFor(error: unknown, fallback: ErrorToast, on?: OnApiError): ErrorToast | null {
  if (!(error instanceof ApiError) || !on) return fallback;
  const toast = on(error);
  return toast === undefined ? fallback : toast;
}

/** Reports a failure: the code's own step and toast (`on`), else the fallback toast. */
export function reportError(error: unknown, fallback: ErrorToast, on?: OnApiError) {
  const toast = errorToastFor(error, fallback, on);
  if (toast) toastError(error, toast);
}

export type SuccessToast = { title: string; description?: string; id?: string };

/**
 * The one way a screen runs a mutation it reports: awaits it (so forms stay "submitting" and the toast
 * still shows if the row that asked disappears), shows the success toast or the error toast, and tells the
 * caller which happened so it can close a dialog, reset a form or mark a field.
 */
export async function runMutation<T>(
  mutation: Promise<T>,
  {
    success,
    error: errorToast,
    on,
  }: {
    /** The success toast; a function may answer null when this answer is not yet the success to report. */
    success?: SuccessToast | ((data: T) => SuccessToast | null);
    /** The toast of a failure that no handler of `on` takes. */
    error: ErrorToast;
    /** Steps and toasts of its own for some error codes (see `OnApiError`). */
    on?: OnApiError;
  },
): Promise<{ ok: true; data: T } | { ok: false; error: unknown }> {
  try {
    const data = await mutation;
    const toast = typeof success === "function" ? success(data) : success;
    if (toast) showToast("success", toast.title, { description: toast.description, id: toast.id });
    return { ok: true, data };
  } catch (error) {
    reportError(error, errorToast, on);
    return { ok: false, error };
  }
}
