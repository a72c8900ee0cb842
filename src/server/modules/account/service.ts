import { createHmac } from "node:crypto";
import { hash } from "@node-rs/argon2";
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import type { z } from "zod";
import { CODE_ATTEMPTS, CODE_TTL_SECONDS, type signUpSchema } from "#domain/accounts";
import { absoluteUrl, paths } from "#domain/routes";
import type { Auth } from "#server/auth/auth";
import type { UserRow } from "#server/auth/guards";
import type { Database } from "#server/db/client";
import { publicUrl } from "#server/env";
import { AppError } from "#server/errors";
import type { Mail, Mailer } from "#server/mail/mailer";
import {
  accountExistsMail,
  alreadyVerifiedMail,
  codeMail,
  noAccountMail,
  pendingSignUpMail,
  signInLockedMail,
} from "#server/mail/templates";
import {
  advanceSignInFailures,
  type CodePurpose,
  claimSendSlot,
  clearSignInFailures,
  findUserByEmail,
  pendingVerification,
  readSignInFailures,
  releaseSendSlot,
} from "#server/modules/account/repository";

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

/** What account sign-up, codes and sign-in need from the app; `accountDepsOf(app)` builds it. */
export type AccountDeps = {
  db: Database;
  auth: Auth;
  mailer: Mailer;
  log: FastifyBaseLogger;
  /** The site's public origin, for the links in the e-mails. */
  origin: string;
  /** AUTH_SECRET: the per-account sign-in counter is keyed by an HMAC of the address. */
  authSecret: string;
};

export function accountDepsOf(app: FastifyInstance): AccountDeps {
  const authSecret = app.env.AUTH_SECRET;
  if (!authSecret) throw new Error("AUTH_SECRET must be set before the app is built");
  return {
    db: app.database.db,
    auth: app.auth,
    mailer: app.mailer,
    log: app.log,
    origin: publicUrl(app.env),
    authSecret,
  };
}

class MailFailed extends AppError {
  constructor() {
    super(502, "MAIL_FAILED", "Failed to send verification code. Please try again.");
  }
}

class CodeCooldown extends AppError {
  constructor(retryAfterSeconds: number) {
    super(429, "CODE_COOLDOWN", `You can resend the code in ${retryAfterSeconds} seconds.`, {
      retryAfterSeconds,
    });
  }
}

/** Refused by the per-account limit; unknown addresses get exactly the same answer. */
export class SignInPaused extends AppError {
  readonly retryAfterSeconds: number | null;

  constructor(retryAfterSeconds: number | null) {
    super(
      429,
      "TOO_MANY_SIGN_IN_ATTEMPTS",
      retryAfterSeconds === null
        ? "Too many failed attempts to log in with this email. Please reset your password with 'Forgot password?' to log in again."
        : `Too many failed attempts to log in with this email. Please try again in ${waitText(retryAfterSeconds)}, or reset your password.`,
      { retryAfterSeconds },
    );
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

const loginUrl = (deps: AccountDeps) => absoluteUrl(deps.origin, paths.login());
const signUpUrl = (deps: AccountDeps) => absoluteUrl(deps.origin, paths.signup());

/** Sends; a failure gives the slot back, so the person may ask again at once, and says so. */
async function sendOrRelease(deps: AccountDeps, purpose: CodePurpose, mail: Mail) {
  try {
    await deps.mailer.send(mail);
  } catch (error) {
    await releaseSendSlot(deps.db, mail.to, purpose);
    deps.log.error({ err: error, purpose }, "code e-mail could not be sent");
    throw new MailFailed();
  }
}

/**
 * One code e-mail for every address, so neither the answer nor its time tells which addresses have
 * accounts. A code (voiding older ones) is created for every address and mailed where it is due;
 * elsewhere the mail says why there is none (already verified, or no account with this address).
 * A code nobody receives is void in 10 minutes and, with at most 5 guesses, as safe as any other.
 */
export async function emailCode(deps: AccountDeps, email: string, purpose: "verify" | "reset") {
  // The one-a-minute slot is taken whether or not the address has an account, so answers match.
  const wait = await claimSendSlot(deps.db, email, purpose);
  if (wait > 0) throw new CodeCooldown(wait);
  const [owner, otp] = await Promise.all([
    findUserByEmail(deps.db, email),
    deps.auth.api.createVerificationOTP({
      body: { email, type: purpose === "verify" ? "email-verification" : "forget-password" },
    }),
  ]);
  const mail = !owner
    ? noAccountMail(purpose, signUpUrl(deps))
    : purpose === "verify" && owner.emailVerified
      ? alreadyVerifiedMail(owner.firstName, loginUrl(deps))
      : codeMail(purpose, owner.firstName, otp);
  await sendOrRelease(deps, purpose, { to: email, ...mail });
}

/**
 * What a repeated sign-up mails to an existing account: a notice if it is verified; otherwise the
 * code already waiting (a new code would void the one the owner may be typing) or, if that one
 * expired or was used up, a new code for the same, unchanged account.
 */
async function existingAccountMail(deps: AccountDeps, owner: UserRow, email: string) {
  if (owner.emailVerified) return accountExistsMail(owner.firstName, loginUrl(deps));
  const now = new Date();
  const pending = await pendingVerification(deps.db, email, CODE_ATTEMPTS, now);
  const waiting = pending
    ? (await deps.auth.api.getVerificationOTP({ query: { email, type: "email-verification" } })).otp
    : null;
  const code =
    waiting ?? (await deps.auth.api.createVerificationOTP({ body: { email, type: "email-verification" } }));
  const secondsLeft =
    waiting && pending ? (pending.expiresAt.getTime() - now.getTime()) / 1000 : CODE_TTL_SECONDS;
  return pendingSignUpMail(owner.firstName, code, Math.max(1, Math.ceil(secondsLeft / 60)));
}

/**
 * Signs up, answering the same whether or not the address already has an account: a new account gets
 * a code; an existing one never changes here, and gets a notice (verified) or its waiting code.
 */
export async function signUp(deps: AccountDeps, body: z.infer<typeof signUpSchema>): Promise<void> {
  const { firstName, lastName, email, password, accountType } = body;
  const existing = await findUserByEmail(deps.db, email);
  // Every path hashes the password and mails the address (a code or a notice) under the same
  // one-a-minute slot; whatever else a path does runs while the hash is computed (on another
  // thread), so the answer and its time are the same whether or not the address has an account.
  const mailDue = (await claimSendSlot(deps.db, email, "verify")) === 0;
  let mail: Mail | null;
  if (existing) {
    // Nobody proves they own the address by signing up, so an existing account, verified or not,
    // never changes here: a stranger cannot plant a password, names or role on someone's address.
    const [, content] = await Promise.all([
      hash(password),
      mailDue ? existingAccountMail(deps, existing, email) : null,
    ]);
    mail = content ? { to: email, ...content } : null;
  } else {
    const [, otp] = await Promise.all([
      deps.auth.api.signUpEmail({
        body: {
          name: `${firstName} ${lastName}`,
          email,
          password,
          firstName,
          lastName,
          isBuyer: accountType === "buyer",
          isSeller: accountType === "seller",
        },
      }),
      mailDue ? deps.auth.api.createVerificationOTP({ body: { email, type: "email-verification" } }) : null,
      // Failures piled up on this address before it had an account are no one's to carry.
      clearSignInFailures(deps.db, signInKey(deps.authSecret, email)),
    ]);
    mail = otp ? { to: email, ...codeMail("verify", firstName, otp) } : null;
  }
  // Within the minute, the code mailed last is still valid: no second mail.
  if (mail) await sendOrRelease(deps, "verify", mail);
}

/**
 * Tells the owner when a wrong password locks sign-in (at the 20th and the 100th in a row). Sent
 * after the answer, whether or not the address has an account, so the lock answers in the same time.
 */
export function noticeLock(deps: AccountDeps, email: string, failures: number) {
  if (failures !== SIGN_IN_LOCK_FAILURES && failures !== SIGN_IN_MAX_FAILURES) return;
  const minutes = failures === SIGN_IN_MAX_FAILURES ? null : SIGN_IN_LOCK_SECONDS / 60;
  setImmediate(() => {
    findUserByEmail(deps.db, email)
      .then(async (owner) => {
        if (!owner) return;
        await deps.mailer.send({
          to: email,
          ...signInLockedMail(owner.firstName, minutes, absoluteUrl(deps.origin, paths.forgotPassword())),
        });
      })
      .catch((error) => deps.log.error({ err: error }, "sign-in lock notice could not be sent"));
  });
}

/**
 * Takes an attempt from the address's sign-in allowance: answers the counter's key and the failures so
 * far, or throws 429 TOO_MANY_SIGN_IN_ATTEMPTS (the same for unknown addresses) with the wait.
 */
export async function claimSignIn(deps: AccountDeps, email: string, now = new Date()) {
  const key = signInKey(deps.authSecret, email);
  const claim = await claimSignInAttempt(deps.db, key, now);
  if (!claim.allowed) {
    const seconds = claim.retryAt
      ? Math.max(1, Math.ceil((claim.retryAt.getTime() - now.getTime()) / 1000))
      : null;
    throw new SignInPaused(seconds);
  }
  return { key, failures: claim.failures };
}
