import { hash } from "@node-rs/argon2";
import type { FastifyPluginAsyncZod, ZodTypeProvider } from "fastify-type-provider-zod";
import { renderSVG } from "uqr";
import { z } from "zod";
import {
  CODE_TTL_SECONDS,
  changePasswordSchema,
  emailOnlySchema,
  passwordConfirmSchema,
  preferencesSchema,
  profileSchema,
  RESEND_COOLDOWN_SECONDS,
  resetPasswordSchema,
  signInSchema,
  signUpSchema,
  twoFactorCodeSchema,
  verifyEmailSchema,
} from "#domain/accounts";
import { authHeaders, currentUser, forwardCookies, requireUser, signedInUser } from "#server/auth/guards";
import { publicUrl } from "#server/env";
import { AppError, Conflict, Unauthorized } from "#server/errors";
import { accountExistsMail, codeMail, passwordChangedMail } from "#server/mail/templates";
import {
  type CodePurpose,
  claimSendSlot,
  findUserByEmail,
  findUserById,
  meSchema,
  readSettings,
  releaseSendSlot,
  setCredentialPassword,
  toMe,
  updateUser,
} from "#server/modules/account/repository";

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

// Per client address; codes also have their own per-address cooldown and per-code attempt limit.
const limits = {
  signUp: { max: 10, timeWindow: "10 minutes" },
  signIn: { max: 30, timeWindow: "10 minutes" },
  code: { max: 10, timeWindow: "10 minutes" },
  check: { max: 30, timeWindow: "10 minutes" },
  account: { max: 30, timeWindow: "10 minutes" },
};

const userAnswer = z.object({ user: meSchema });
const codeSent = z.object({
  sent: z.literal(true),
  expiresInSeconds: z.number(),
  cooldownSeconds: z.number(),
});
const sentAnswer = {
  sent: true as const,
  expiresInSeconds: CODE_TTL_SECONDS,
  cooldownSeconds: RESEND_COOLDOWN_SECONDS,
};
const noContent = { 204: z.null().describe("Done") };
const privateNoStore = "private, no-store";

/**
 * Accounts: sign-up, e-mail codes, sign-in with optional two-factor, sign-out, the current user, profile,
 * preferences, password and two-factor settings. better-auth does the cryptography and sessions
 * (src/server/auth/auth.ts); these handlers decide what is allowed and answer in our shape.
 */
export const accountRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;

  /**
   * Runs `send` unless something went to this address for this purpose in the last minute. The slot
   * is taken before sending, whether or not the address has an account, so answers match.
   */
  async function onceAMinute(email: string, purpose: CodePurpose, send: () => Promise<void>) {
    const wait = await claimSendSlot(db, email, purpose);
    if (wait > 0) throw new CodeCooldown(wait);
    try {
      await send();
    } catch (error) {
      await releaseSendSlot(db, email, purpose);
      app.log.error({ err: error, purpose }, "code e-mail could not be sent");
      throw new MailFailed();
    }
  }

  /** Creates a code (voiding older ones) and mails it; an unknown address gets nothing, silently. */
  const emailCode = (email: string, purpose: "verify" | "reset") =>
    onceAMinute(email, purpose, async () => {
      const owner = await findUserByEmail(db, email);
      if (!owner) return;
      const otp = await app.auth.api.createVerificationOTP({
        body: { email, type: purpose === "verify" ? "email-verification" : "forget-password" },
      });
      await app.mailer.send({ to: email, ...codeMail(purpose, owner.firstName, otp) });
    });

  async function refuseIfVerified(email: string) {
    if ((await findUserByEmail(db, email))?.emailVerified) {
      throw new Conflict("This email is already verified. Please try logging in.", "ALREADY_VERIFIED");
    }
  }

  /** A code sent within the minute is still valid, so a repeat sign-up need not send another. */
  const unlessCoolingDown = (error: unknown) => {
    if (!(error instanceof CodeCooldown)) throw error;
  };

  app.post(
    "/auth/sign-up",
    {
      config: { rateLimit: limits.signUp },
      schema: {
        tags: ["accounts"],
        summary: "Create a buyer or seller account and e-mail a verification code",
        description:
          "Answers the same whether or not the address already has an account: a new or unverified account gets a code, a verified one gets a notice by e-mail.",
        body: signUpSchema,
        response: { 200: z.object({ email: z.string() }) },
      },
    },
    async (request) => {
      const { firstName, lastName, email, password, accountType } = request.body;
      const roles = { isBuyer: accountType === "buyer", isSeller: accountType === "seller" };
      const existing = await findUserByEmail(db, email);
      if (existing?.emailVerified) {
        await hash(password); // the same work as a real sign-up, so timing does not tell
        await onceAMinute(email, "signup-notice", () =>
          app.mailer.send({
            to: email,
            ...accountExistsMail(existing.firstName, `${publicUrl(app.env)}/login`),
          }),
        ).catch(unlessCoolingDown);
        return { email };
      }
      if (existing) {
        // Unverified: whoever proves the address with the next code gets the account as signed up last.
        await setCredentialPassword(db, existing.id, await hash(password));
        await updateUser(db, existing.id, {
          firstName,
          lastName,
          name: `${firstName} ${lastName}`,
          ...roles,
        });
      } else {
        await app.auth.api.signUpEmail({
          body: { name: `${firstName} ${lastName}`, email, password, firstName, lastName, ...roles },
        });
      }
      await emailCode(email, "verify").catch(unlessCoolingDown);
      return { email };
    },
  );

  app.post(
    "/auth/verification-code",
    {
      config: { rateLimit: limits.code },
      schema: {
        tags: ["accounts"],
        summary: "E-mail a new verification code (one a minute per address)",
        body: emailOnlySchema,
        response: { 200: codeSent },
      },
    },
    async (request) => {
      const { email } = request.body;
      await refuseIfVerified(email);
      await emailCode(email, "verify");
      return sentAnswer;
    },
  );

  app.post(
    "/auth/verify-email",
    {
      config: { rateLimit: limits.check },
      schema: {
        tags: ["accounts"],
        summary: "Confirm an e-mail address with the code sent to it",
        body: verifyEmailSchema,
        response: { 200: z.object({ verified: z.literal(true) }) },
      },
    },
    async (request) => {
      const { email, code } = request.body;
      await refuseIfVerified(email);
      await app.auth.api.verifyEmailOTP({ body: { email, otp: code } });
      return { verified: true as const };
    },
  );

  app.post(
    "/auth/sign-in",
    {
      config: { rateLimit: limits.signIn },
      schema: {
        tags: ["accounts"],
        summary: "Log in with e-mail and password",
        description:
          "Sets the session cookie, or, when two-factor authentication is on, answers `twoFactorRequired` and expects POST /api/auth/two-factor.",
        body: signInSchema,
        response: {
          200: z.union([userAnswer, z.object({ twoFactorRequired: z.literal(true) })]),
        },
      },
    },
    async (request, reply) => {
      const { headers, response } = await app.auth.api.signInEmail({
        body: { ...request.body, rememberMe: true },
        headers: authHeaders(request),
        returnHeaders: true,
      });
      forwardCookies(reply, headers);
      reply.header("cache-control", privateNoStore);
      if ("twoFactorRedirect" in response && response.twoFactorRedirect)
        return { twoFactorRequired: true as const };
      const row = "user" in response ? await findUserById(db, response.user.id) : null;
      if (!row) throw new Unauthorized();
      return { user: toMe(row) };
    },
  );

  app.post(
    "/auth/two-factor",
    {
      config: { rateLimit: limits.code },
      schema: {
        tags: ["accounts"],
        summary: "Finish a sign-in with an authenticator code or a backup code",
        body: twoFactorCodeSchema,
        response: { 200: userAnswer },
      },
    },
    async (request, reply) => {
      const { code, trustDevice } = request.body;
      const call = { headers: authHeaders(request), returnHeaders: true as const };
      const { headers, response } = /^\d{6}$/.test(code)
        ? await app.auth.api.verifyTOTP({ ...call, body: { code, trustDevice } })
        : await app.auth.api.verifyBackupCode({ ...call, body: { code, trustDevice } });
      forwardCookies(reply, headers);
      reply.header("cache-control", privateNoStore);
      const row = await findUserById(db, response.user.id);
      if (!row) throw new Unauthorized();
      return { user: toMe(row) };
    },
  );

  app.post(
    "/auth/sign-out",
    { schema: { tags: ["accounts"], summary: "End the current session", response: noContent } },
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

  app.post(
    "/auth/password/forgot",
    {
      config: { rateLimit: limits.code },
      schema: {
        tags: ["accounts"],
        summary: "E-mail a password reset code (same answer for unknown addresses)",
        body: emailOnlySchema,
        response: { 200: codeSent },
      },
    },
    async (request) => {
      const { email } = request.body;
      await emailCode(email, "reset");
      return sentAnswer;
    },
  );

  app.post(
    "/auth/password/reset",
    {
      config: { rateLimit: limits.check },
      schema: {
        tags: ["accounts"],
        summary: "Choose a new password with the e-mailed code; every session ends",
        body: resetPasswordSchema,
        response: { 200: z.object({ reset: z.literal(true) }) },
      },
    },
    async (request) => {
      const { email, code, password } = request.body;
      await app.auth.api.resetPasswordEmailOTP({ body: { email, otp: code, password } });
      return { reset: true as const };
    },
  );

  app.get(
    "/me",
    {
      schema: {
        tags: ["accounts"],
        summary: "The signed-in user with role flags and preferences, or null for a visitor",
        response: { 200: z.object({ user: meSchema.nullable() }) },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", privateNoStore);
      const me = await currentUser(request, reply);
      return { user: me ? toMe(me) : null };
    },
  );

  /** Routes below act on the signed-in user's own account only: the id comes from the session. */
  app.register(async (scope) => {
    const own = scope.withTypeProvider<ZodTypeProvider>();
    own.addHook("onRequest", requireUser);
    own.addHook("onSend", async (_request, reply) => {
      reply.header("cache-control", privateNoStore);
    });
    own.patch(
      "/me",
      {
        config: { rateLimit: limits.account },
        schema: {
          tags: ["accounts"],
          summary: "Update your profile (the e-mail address cannot be changed)",
          body: profileSchema,
          response: { 200: userAnswer },
        },
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

    own.patch(
      "/me/preferences",
      {
        config: { rateLimit: limits.account },
        schema: {
          tags: ["accounts"],
          summary: "Save display currency, theme and notification settings",
          body: preferencesSchema,
          response: { 200: userAnswer },
        },
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

    own.post(
      "/me/password",
      {
        config: { rateLimit: limits.code },
        schema: {
          tags: ["accounts"],
          summary: "Change your password; every other session ends",
          body: changePasswordSchema,
          response: noContent,
        },
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

    own.post(
      "/me/two-factor/enable",
      {
        config: { rateLimit: limits.code },
        schema: {
          tags: ["accounts"],
          summary: "Start two-factor set-up: a secret for the authenticator app and backup codes",
          description:
            "Two-factor is on only after POST /api/me/two-factor/confirm with a code from the app.",
          body: passwordConfirmSchema,
          response: {
            200: z.object({
              totpURI: z.string(),
              secret: z.string(),
              qrCodeSvg: z.string(),
              backupCodes: z.array(z.string()),
            }),
          },
        },
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

    own.post(
      "/me/two-factor/confirm",
      {
        config: { rateLimit: limits.code },
        schema: {
          tags: ["accounts"],
          summary: "Turn two-factor on with the first code from the authenticator app",
          body: z.object({
            code: z
              .string()
              .trim()
              .regex(/^\d{6}$/, "Enter the 6-digit code from your app."),
          }),
          response: { 200: userAnswer },
        },
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

    own.post(
      "/me/two-factor/disable",
      {
        config: { rateLimit: limits.code },
        schema: {
          tags: ["accounts"],
          summary: "Turn two-factor authentication off",
          body: passwordConfirmSchema,
          response: { 200: userAnswer },
        },
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
  });
};
