import { useEffect, useState } from "react";
import { RESEND_COOLDOWN_SECONDS } from "#domain/accounts";
import type { ApiError } from "#web/lib/api";
import type { ErrorToast, OnApiError } from "#web/lib/mutation";

/**
 * Whole seconds until `deadline` (a Date.now() time), re-rendering each second while it is ahead.
 * It is read from the clock on every render rather than counted down, so a tab the browser throttled
 * in the background is right the moment it is seen again.
 */
export function useSecondsLeft(deadline: number) {
  const [, setTick] = useState(0);
  const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
  const running = left > 0;
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setTick((tick) => tick + 1), 1000);
    return () => clearInterval(timer);
  }, [running]);
  return left;
}

/** The wait a CODE_COOLDOWN answer asks for, in seconds. */
export function retryAfterSeconds(error: ApiError, fallback: number) {
  const details = error.details as { retryAfterSeconds?: unknown } | undefined;
  const seconds = Number(details?.retryAfterSeconds);
  return Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds) : fallback;
}

const WRONG_CODE = "The verification code is incorrect or has expired.";

/** The code field of a form that takes an e-mailed code (verify, reset password). */
type CodeForm = {
  setError(name: "code", error: { message: string }, options?: { shouldFocus?: boolean }): void;
  setValue(name: "code", value: string): void;
};

/**
 * A wrong, expired or used-up e-mailed code: marked on the form's code field, with the toast that says
 * so. After too many wrong tries the code is void, so the field is emptied for a new one.
 */
export function codeErrors(form: CodeForm): OnApiError {
  return (error) => {
    switch (error.code) {
      case "INVALID_CODE":
      case "CODE_EXPIRED":
        form.setError("code", { message: WRONG_CODE }, { shouldFocus: true });
        return { title: "Invalid Code", description: WRONG_CODE };
      case "TOO_MANY_ATTEMPTS":
        form.setValue("code", "");
        form.setError("code", { message: error.message });
        return { title: "Invalid Code", description: error.message };
      default:
        return undefined;
    }
  };
}

/** A new code asked for too soon: the moment the next may be asked for (`until`), and the toast that says so. */
export function cooldownError(error: ApiError, until: (deadline: number) => void): ErrorToast {
  const wait = retryAfterSeconds(error, RESEND_COOLDOWN_SECONDS);
  until(Date.now() + wait * 1000);
  return { title: "Please Wait", description: `You can resend the code in ${wait} seconds.` };
}
