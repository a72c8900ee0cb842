import { useEffect, useState } from "react";
import { ApiError } from "#web/lib/api";

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

export const isApiError = (error: unknown, ...codes: string[]): error is ApiError =>
  error instanceof ApiError && (codes.length === 0 || codes.includes(error.code));
