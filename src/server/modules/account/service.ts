import { createHmac } from "node:crypto";
import type { Database } from "#server/db/client";
import { advanceSignInFailures, readSignInFailures } from "#server/modules/account/repository";

/**
 * Password guessing per account, whichever client address the guesses come from
 * (docs/decisions/0003-accounts.md). Failures 1-5 are free (typos); from the 5th on, the next attempt
 * waits 5 s, 10 s, 20 s ... up to 5 minutes; the 20th locks sign-in for 15 minutes and so does every
 * later one; the 100th (NIST SP 800-63B's ceiling) locks it until the password is reset. A correct
 * password or a password reset starts the count again.
 */
export const SIGN_IN_FREE_FAILURES = 5;
export const SIGN_IN_LOCK_FAILURES = 20;
export const SIGN_IN_MAX_FAILURES = 100;
export const SIGN_IN_LOCK_SECONDS = 15 * 60;
const FIRST_DELAY_SECONDS = 5;
const LONGEST_DELAY_SECONDS = 5 * 60;

/** Seconds before another attempt is accepted after `failures` consecutive ones; null: until a reset. */
export function signInWaitSeconds(failures: number): number | null {
  if (failures >= SIGN_IN_MAX_FAILURES) return null;
  if (failures >= SIGN_IN_LOCK_FAILURES) return SIGN_IN_LOCK_SECONDS;
  if (failures < SIGN_IN_FREE_FAILURES) return 0;
  return Math.min(FIRST_DELAY_SECONDS * 2 ** (failures - SIGN_IN_FREE_FAILURES), LONGEST_DELAY_SECONDS);
}

/** The counter's key: a keyed hash, so the table neither holds addresses nor tells which exist. */
export function signInKey(secret: string, email: string) {
  return createHmac("sha256", secret).update(`sign-in:${email}`).digest("base64url");
}

export type SignInClaim = { allowed: true; failures: number } | { allowed: false; retryAt: Date | null };

/**
 * Counts this attempt as a failure before the password is checked (a success clears the count), so
 * parallel guesses each use up an attempt. Refused attempts count nothing and extend nothing: an
 * attacker cannot keep an account locked for longer than the schedule says.
 */
export async function claimSignInAttempt(db: Database, key: string, now = new Date()): Promise<SignInClaim> {
  for (let tries = 0; tries < 5; tries++) {
    const row = await readSignInFailures(db, key);
    const failures = row?.failures ?? 0;
    if (failures >= SIGN_IN_MAX_FAILURES) return { allowed: false, retryAt: null };
    if (row?.nextAttemptAt && row.nextAttemptAt > now) return { allowed: false, retryAt: row.nextAttemptAt };
    const wait = signInWaitSeconds(failures + 1);
    const nextAttemptAt = wait ? new Date(now.getTime() + wait * 1000) : null;
    if (
      await advanceSignInFailures(db, key, failures, {
        failures: failures + 1,
        nextAttemptAt,
        updatedAt: now,
      })
    )
      return { allowed: true, failures: failures + 1 };
  }
  // Other attempts kept moving the count under this one: as busy as that, it may wait too.
  return { allowed: false, retryAt: new Date(now.getTime() + FIRST_DELAY_SECONDS * 1000) };
}

/** "45 seconds", "3 minutes": when to try again, for the message. */
export function waitText(seconds: number) {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? "" : "s"}`;
}
