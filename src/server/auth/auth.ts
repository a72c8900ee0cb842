import { hash, verify } from "@node-rs/argon2";
import { APIError, type BetterAuthPlugin, betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { createAuthEndpoint } from "better-auth/api";
import { setSessionCookie } from "better-auth/cookies";
import { emailOTP, twoFactor } from "better-auth/plugins";
import { eq } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { z } from "zod";
import { CODE_ATTEMPTS, CODE_LENGTH, CODE_TTL_SECONDS, PASSWORD_MAX, PASSWORD_MIN } from "#domain/accounts";
import type { Database } from "#server/db/client";
import { account, session, twoFactor as twoFactorTable, user, verification } from "#server/db/schema/auth";
import { type Env, publicUrl } from "#server/env";
import { recordResellerSighting } from "#server/modules/referrals/signals";
import { ensureStorefront } from "#server/modules/storefronts/repository";

export const SESSION_COOKIE_PREFIX = "stackbay";

/**
 * Opens a session for a user whose e-mail code was just accepted in the browser that signed up
 * (modules/account decides when; docs/decisions/0003-accounts.md). An endpoint of our own so the
 * session and its signed cookie are made by better-auth exactly as at sign-in; like every endpoint
 * here it is reachable only from server code, as the handler is not mounted.
 */
const signInAfterVerification = {
  id: "stackbay-sign-in-after-verification",
  endpoints: {
    signInAfterVerification: createAuthEndpoint(
      "/stackbay/sign-in-after-verification",
      { method: "POST", body: z.object({ userId: z.string() }), metadata: { scope: "server" as const } },
      async (ctx) => {
        const user = await ctx.context.internalAdapter.findUserById(ctx.body.userId);
        if (!user?.emailVerified) throw new APIError("UNAUTHORIZED");
        const session = await ctx.context.internalAdapter.createSession(user.id);
        await setSessionCookie(ctx, { session, user });
        return ctx.json({ userId: user.id });
      },
    ),
  },
} satisfies BetterAuthPlugin;

/**
 * better-auth as a library: our routes (modules/account) call `auth.api.*`; its own HTTP handler is
 * never mounted, so only the endpoints we chose exist (docs/decisions/0003-accounts.md).
 */
export function createAuth(deps: { db: Database; env: Env; log: FastifyBaseLogger }) {
  const { db, env, log } = deps;
  const secret = env.AUTH_SECRET;
  if (!secret) throw new Error("AUTH_SECRET must be set before the app is built");
  const baseURL = publicUrl(env);

  return betterAuth({
    appName: "Stackbay",
    baseURL,
    // The same single origin app.ts accepts writes from.
    trustedOrigins: [new URL(baseURL).origin],
    secret,
    database: drizzleAdapter(db, {
      provider: "pg",
      schema: { user, session, account, verification, twoFactor: twoFactorTable },
    }),
    logger: {
      level: "warn",
      log: (level, message) => log[level]({ source: "better-auth" }, message),
    },
    telemetry: { enabled: false },
    // Our routes carry the limits (@fastify/rate-limit); better-auth's limiter only guards its handler,
    // which is not mounted. Said explicitly because its default changes with NODE_ENV.
    rateLimit: { enabled: false },
    advanced: {
      cookiePrefix: SESSION_COOKIE_PREFIX,
      useSecureCookies: baseURL.startsWith("https://"),
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax" },
      database: { generateId: () => crypto.randomUUID() },
    },
    session: { expiresIn: 60 * 60 * 24 * 30, updateAge: 60 * 60 * 24 },
    user: {
      additionalFields: {
        firstName: { type: "string", required: true, input: true },
        lastName: { type: "string", required: true, input: true },
        isBuyer: { type: "boolean", required: false, input: true, defaultValue: true },
        isSeller: { type: "boolean", required: false, input: true, defaultValue: false },
      },
    },
    emailAndPassword: {
      enabled: true,
      requireEmailVerification: true,
      autoSignIn: false,
      minPasswordLength: PASSWORD_MIN,
      maxPasswordLength: PASSWORD_MAX,
      revokeSessionsOnPasswordReset: true,
      // argon2id (the @node-rs/argon2 default) instead of better-auth's scrypt.
      password: {
        hash: (password) => hash(password),
        verify: ({ hash: digest, password }) => verify(digest, password),
      },
    },
    databaseHooks: {
      user: {
        create: {
          // Every seller has a storefront from sign-up on (issue 17, item 5).
          after: async (row) => {
            if ((row as { isSeller?: boolean }).isSeller) await ensureStorefront(db, row);
          },
        },
      },
      session: {
        create: {
          // A disabled account gets no session, whichever way it signs in.
          before: async (row) => {
            const [owner] = await db
              .select({ banned: user.banned })
              .from(user)
              .where(eq(user.id, row.userId));
            if (owner?.banned) {
              throw new APIError("FORBIDDEN", {
                code: "ACCOUNT_DISABLED",
                message: "This account has been disabled. Please contact support.",
              });
            }
          },
          // Where a reseller signs in from, as keyed hashes, so a second account buying through their
          // link from there is held for review (sessions themselves go at sign-out).
          after: async (row) => {
            if (row.impersonatedBy) return;
            await recordResellerSighting(db, secret, {
              userId: row.userId,
              ip: row.ipAddress,
              userAgent: row.userAgent,
            });
          },
        },
      },
    },
    plugins: [
      signInAfterVerification,
      emailOTP({
        otpLength: CODE_LENGTH,
        expiresIn: CODE_TTL_SECONDS,
        allowedAttempts: CODE_ATTEMPTS,
        // Encrypted with AUTH_SECRET: a hash of six digits is reversed by trying all million of them.
        storeOTP: "encrypted",
        sendVerificationOnSignUp: false,
        disableSignUp: true,
        // Codes are created with `createVerificationOTP` and mailed by modules/account, which must
        // report a mail failure; better-auth's own sending path would swallow it.
        async sendVerificationOTP() {
          throw new Error("verification codes are mailed by the account module");
        },
      }),
      twoFactor({
        issuer: "Stackbay",
        // The two-factor step of a sign-in must be finished within 10 minutes.
        twoFactorCookieMaxAge: 600,
        backupCodeOptions: { amount: 10, length: 10 },
      }),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;
