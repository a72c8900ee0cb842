import { APIError } from "better-auth";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { renderSVG } from "uqr";
import { CODE_TTL_SECONDS, type CodeSent, RESEND_COOLDOWN_SECONDS } from "#domain/accounts";
import { authHeaders, currentUser, forwardCookies, requireUser, signedInUser } from "#server/auth/guards";
import { Conflict, Unauthorized } from "#server/errors";
import { route } from "#server/http/route";
import { passwordChangedMail } from "#server/mail/templates";
import {
  clearPendingSignIn,
  hasPendingSignIn,
  writePendingSignIn,
} from "#server/modules/account/pending-sign-in";
import {
  clearSignInFailures,
  findUserById,
  readSettings,
  toMe,
  updateUser,
} from "#server/modules/account/repository";
import {
  accountDepsOf,
  claimSignIn,
  emailCode,
  noticeLock,
  SignInPaused,
  signInKey,
  signUp,
} from "#server/modules/account/service";

/** better-auth errors that come only after the password was checked and found right. */
const rightPassword = new Set(["EMAIL_NOT_VERIFIED", "ACCOUNT_DISABLED"]);
const authErrorCode = (error: unknown) =>
  error instanceof APIError && typeof error.body?.code === "string" ? error.body.code : null;

// Per client address; codes also have their own per-address cooldown and per-code attempt limit.
const limits = {
  signUp: { max: 10, timeWindow: "10 minutes" },
  signIn: { max: 30, timeWindow: "10 minutes" },
  code: { max: 10, timeWindow: "10 minutes" },
  check: { max: 30, timeWindow: "10 minutes" },
  account: { max: 30, timeWindow: "10 minutes" },
};

const sentAnswer: CodeSent = {
  sent: true,
  expiresInSeconds: CODE_TTL_SECONDS,
  cooldownSeconds: RESEND_COOLDOWN_SECONDS,
};
/**
 * Accounts: sign-up, e-mail codes, sign-in with optional two-factor, sign-out, the current user, profile,
 * preferences, password and two-factor settings. better-auth does the cryptography and sessions
 * (src/server/auth/auth.ts); these handlers decide what is allowed and answer in our shape.
 */
export const accountRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  const deps = accountDepsOf(app);

  route(
    app,
    "POST /auth/sign-up",
    {
      tags: ["accounts"],
      summary: "Create a buyer or seller account and e-mail a verification code",
      description:
        "Answers the same whether or not the address already has an account: a new or unverified account gets a code, a verified one gets a notice by e-mail.",
      config: { rateLimit: limits.signUp },
    },
    async (request, reply) => {
      const { email } = request.body;
      await signUp(deps, request.body);
      writePendingSignIn(request, reply, email);
      return { email };
    },
  );

  route(
    app,
    "POST /auth/verification-code",
    {
      tags: ["accounts"],
      summary: "E-mail a new verification code (one a minute per address)",
      config: { rateLimit: limits.code },
    },
    async (request) => {
      await emailCode(deps, request.body.email, "verify");
      return sentAnswer;
    },
  );

  route(
    app,
    "POST /auth/verify-email",
    {
      tags: ["accounts"],
      summary: "Confirm an e-mail address with the code sent to it",
      description:
        "In the browser that signed up (its pending sign-in cookie, 30 minutes) the person is also signed in and `user` is set; otherwise `user` is null and they log in. Accounts with two-factor always log in.",
      config: { rateLimit: limits.check },
    },
    async (request, reply) => {
      // An unknown or already verified address has no code waiting, so better-auth answers exactly as
      // for a wrong code (INVALID_CODE): the answer does not tell which addresses have accounts.
      const { email, code } = request.body;
      const pending = hasPendingSignIn(request, email);
      const { user: verified } = await app.auth.api.verifyEmailOTP({ body: { email, otp: code } });
      clearPendingSignIn(reply);
      const row = pending ? await findUserById(db, verified.id) : null;
      // The second factor is never skipped: such an account logs in with its password and its code.
      if (!row || row.twoFactorEnabled || row.banned) return { verified: true as const, user: null };
      const { headers } = await app.auth.api.signInAfterVerification({
        body: { userId: row.id },
        headers: authHeaders(request),
        returnHeaders: true,
      });
      forwardCookies(reply, headers);
      return { verified: true as const, user: toMe(row) };
    },
  );

  const signInWithPassword = (body: { email: string; password: string }, headers: Headers) =>
    app.auth.api.signInEmail({ body: { ...body, rememberMe: true }, headers, returnHeaders: true });

  route(
    app,
    "POST /auth/sign-in",
    {
      tags: ["accounts"],
      summary: "Log in with e-mail and password",
      description:
        "Sets the session cookie, or, when two-factor authentication is on, answers `twoFactorRequired` and expects POST /api/auth/two-factor.",
      config: { rateLimit: limits.signIn },
    },
    async (request, reply) => {
      const { email } = request.body;
      let claim: Awaited<ReturnType<typeof claimSignIn>>;
      try {
        claim = await claimSignIn(deps, email);
      } catch (error) {
        if (error instanceof SignInPaused && error.retryAfterSeconds)
          reply.header("retry-after", String(error.retryAfterSeconds));
        throw error;
      }
      const { key } = claim;
      let signedIn: Awaited<ReturnType<typeof signInWithPassword>>;
      try {
        signedIn = await signInWithPassword(request.body, authHeaders(request));
      } catch (error) {
        const code = authErrorCode(error);
        if (code && rightPassword.has(code)) await clearSignInFailures(db, key);
        else if (code === "INVALID_EMAIL_OR_PASSWORD") noticeLock(deps, email, claim.failures);
        throw error;
      }
      // The password was right (a second factor, if any, has its own lockout in better-auth).
      await clearSignInFailures(db, key);
      const { headers, response } = signedIn;
      forwardCookies(reply, headers);
      if ("twoFactorRedirect" in response && response.twoFactorRedirect)
        return { twoFactorRequired: true as const };
      const row = "user" in response ? await findUserById(db, response.user.id) : null;
      if (!row) throw new Unauthorized();
      return { user: toMe(row) };
    },
  );

  route(
    app,
    "POST /auth/two-factor",
    {
      tags: ["accounts"],
      summary: "Finish a sign-in with an authenticator code or a backup code",
      config: { rateLimit: limits.code },
    },
    async (request, reply) => {
      const { code, trustDevice } = request.body;
      const call = { headers: authHeaders(request), returnHeaders: true as const };
      const { headers, response } = /^\d{6}$/.test(code)
        ? await app.auth.api.verifyTOTP({ ...call, body: { code, trustDevice } })
        : await app.auth.api.verifyBackupCode({ ...call, body: { code, trustDevice } });
      forwardCookies(reply, headers);
      const row = await findUserById(db, response.user.id);
      if (!row) throw new Unauthorized();
      return { user: toMe(row) };
    },
  );

  route(
    app,
    "POST /auth/sign-out",
    {
      tags: ["accounts"],
      summary: "End the current session",
    },
    async (request, reply) => {
      try {
        const { headers } = await app.auth.api.signOut({
          headers: authHeaders(request),
          returnHeaders: true,
        });
        forwardCookies(reply, headers);
      } catch (error) {
        // Signing out of a session that is already gone is not the visitor's problem.
        request.log.warn({ err: error }, "sign-out failed");
      }
      return reply.status(204).send(null);
    },
  );

  route(
    app,
    "POST /auth/password/forgot",
    {
      tags: ["accounts"],
      summary: "E-mail a password reset code (same answer for unknown addresses)",
      config: { rateLimit: limits.code },
    },
    async (request) => {
      const { email } = request.body;
      await emailCode(deps, email, "reset");
      return sentAnswer;
    },
  );

  route(
    app,
    "POST /auth/password/reset",
    {
      tags: ["accounts"],
      summary: "Choose a new password with the e-mailed code; every session ends",
      config: { rateLimit: limits.check },
    },
    async (request) => {
      const { email, code, password } = request.body;
      await app.auth.api.resetPasswordEmailOTP({ body: { email, otp: code, password } });
      // Proving the mailbox ends any sign-in lock: the owner is never locked out for longer than a reset.
      await clearSignInFailures(db, signInKey(deps.authSecret, email));
      return { reset: true as const };
    },
  );

  route(
    app,
    "GET /me",
    {
      tags: ["accounts"],
      summary: "The signed-in user with role flags and preferences, or null for a visitor",
    },
    async (request, reply) => {
      const me = await currentUser(request, reply);
      return { user: me ? toMe(me) : null };
    },
  );

  /** Routes below act on the signed-in user's own account only: the id comes from the session. */
  route(
    app,
    "PATCH /me",
    {
      tags: ["accounts"],
      summary: "Update your profile (the e-mail address cannot be changed)",
      onRequest: requireUser,
      config: { rateLimit: limits.account },
    },
    async (request) => {
      const { firstName, lastName, phone, address, city, country } = request.body;
      const row = await updateUser(db, signedInUser(request).id, {
        firstName,
        lastName,
        name: `${firstName} ${lastName}`,
        phone: phone ?? null,
        address: address ?? null,
        city: city ?? null,
        country: country ?? null,
      });
      return { user: toMe(row) };
    },
  );

  route(
    app,
    "PATCH /me/preferences",
    {
      tags: ["accounts"],
      summary: "Save display currency, theme and notification settings",
      onRequest: requireUser,
      config: { rateLimit: limits.account },
    },
    async (request) => {
      const current = signedInUser(request);
      const { currency, theme, notifications } = request.body;
      const settings = readSettings(current);
      const row = await updateUser(db, current.id, {
        preferredCurrency: currency ?? current.preferredCurrency,
        settings: {
          theme: theme ?? settings.theme,
          notifications: notifications ?? settings.notifications,
        },
      });
      return { user: toMe(row) };
    },
  );

  route(
    app,
    "POST /me/password",
    {
      tags: ["accounts"],
      summary: "Change your password; every other session ends",
      onRequest: requireUser,
      config: { rateLimit: limits.code },
    },
    async (request, reply) => {
      const { headers } = await app.auth.api.changePassword({
        body: { ...request.body, revokeOtherSessions: true },
        headers: authHeaders(request),
        returnHeaders: true,
      });
      forwardCookies(reply, headers);
      const owner = signedInUser(request);
      await app.mailer
        .send({ to: owner.email, ...passwordChangedMail(owner.firstName) })
        .catch((error) => request.log.error({ err: error }, "password-changed notice could not be sent"));
      return reply.status(204).send(null);
    },
  );

  route(
    app,
    "POST /me/two-factor/enable",
    {
      tags: ["accounts"],
      summary: "Start two-factor set-up: a secret for the authenticator app and backup codes",
      description: "Two-factor is on only after POST /api/me/two-factor/confirm with a code from the app.",
      onRequest: requireUser,
      config: { rateLimit: limits.code },
    },
    async (request) => {
      if (signedInUser(request).twoFactorEnabled) {
        throw new Conflict("Two-factor authentication is already on.", "TWO_FACTOR_ALREADY_ENABLED");
      }
      const result = await app.auth.api.enableTwoFactor({
        body: { password: request.body.password },
        headers: authHeaders(request),
      });
      if (!("totpURI" in result) || !result.totpURI)
        throw new Error("two-factor set-up returned no TOTP URI");
      return {
        totpURI: result.totpURI,
        secret: new URL(result.totpURI).searchParams.get("secret") ?? "",
        qrCodeSvg: renderSVG(result.totpURI, { border: 2 }),
        backupCodes: result.backupCodes ?? [],
      };
    },
  );

  route(
    app,
    "POST /me/two-factor/confirm",
    {
      tags: ["accounts"],
      summary: "Turn two-factor on with the first code from the authenticator app",
      onRequest: requireUser,
      config: { rateLimit: limits.code },
    },
    async (request, reply) => {
      const { headers } = await app.auth.api.verifyTOTP({
        body: { code: request.body.code },
        headers: authHeaders(request),
        returnHeaders: true,
      });
      forwardCookies(reply, headers);
      const row = await findUserById(db, signedInUser(request).id);
      if (!row) throw new Unauthorized();
      return { user: toMe(row) };
    },
  );

  route(
    app,
    "POST /me/two-factor/disable",
    {
      tags: ["accounts"],
      summary: "Turn two-factor authentication off",
      onRequest: requireUser,
      config: { rateLimit: limits.code },
    },
    async (request, reply) => {
      const { headers } = await app.auth.api.disableTwoFactor({
        body: { password: request.body.password },
        headers: authHeaders(request),
        returnHeaders: true,
      });
      forwardCookies(reply, headers);
      const row = await findUserById(db, signedInUser(request).id);
      if (!row) throw new Unauthorized();
      return { user: toMe(row) };
    },
  );
};
