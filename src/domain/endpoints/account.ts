import { z } from "zod";
import {
  changePasswordSchema,
  codeSentSchema,
  currentUserAnswerSchema,
  emailOnlySchema,
  passwordConfirmSchema,
  preferencesSchema,
  profileSchema,
  resetPasswordSchema,
  signInResultSchema,
  signInSchema,
  signUpSchema,
  twoFactorCodeSchema,
  userAnswerSchema,
  verifyEmailResultSchema,
  verifyEmailSchema,
} from "#domain/accounts";
import { endpoint } from "#domain/endpoint";

/** The first code from the authenticator app, which turns two-factor on. */
export const twoFactorConfirmSchema = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, "Enter the 6-digit code from your app."),
});

/** Two-factor set-up: the secret for the authenticator app (as a URI, text and QR code) and backup codes. */
export const twoFactorSetupSchema = z.object({
  totpURI: z.string(),
  secret: z.string(),
  qrCodeSvg: z.string(),
  backupCodes: z.array(z.string()),
});
export type TwoFactorSetup = z.infer<typeof twoFactorSetupSchema>;

/** What the web calls of the server's `account` module (`src/server/modules/account/routes.ts`). */
export const accountEndpoints = {
  "GET /me": endpoint({ answer: currentUserAnswerSchema, errors: [] }),
  "PATCH /me": endpoint({
    body: profileSchema,
    answer: userAnswerSchema,
    errors: [],
  }),
  "PATCH /me/preferences": endpoint({
    body: preferencesSchema,
    answer: userAnswerSchema,
    errors: [],
  }),
  "POST /auth/password/forgot": endpoint({
    body: emailOnlySchema,
    answer: codeSentSchema,
    errors: ["CODE_COOLDOWN", "MAIL_FAILED"],
  }),
  "POST /auth/password/reset": endpoint({
    body: resetPasswordSchema,
    answer: z.object({ reset: z.literal(true) }),
    errors: ["INVALID_CODE", "CODE_EXPIRED", "TOO_MANY_ATTEMPTS"],
  }),
  "POST /auth/sign-in": endpoint({
    body: signInSchema,
    answer: signInResultSchema,
    errors: ["INVALID_CREDENTIALS", "EMAIL_NOT_VERIFIED", "ACCOUNT_DISABLED", "TOO_MANY_SIGN_IN_ATTEMPTS"],
  }),
  "POST /auth/sign-out": endpoint({
    answer: null,
    errors: [],
  }),
  "POST /auth/sign-up": endpoint({
    body: signUpSchema,
    answer: z.object({ email: z.string() }),
    errors: ["CODE_COOLDOWN", "MAIL_FAILED"],
  }),
  "POST /auth/two-factor": endpoint({
    body: twoFactorCodeSchema,
    answer: userAnswerSchema,
    errors: ["INVALID_TWO_FACTOR_CODE", "TOO_MANY_ATTEMPTS", "TWO_FACTOR_EXPIRED", "TWO_FACTOR_NOT_ENABLED"],
  }),
  "POST /auth/verification-code": endpoint({
    body: emailOnlySchema,
    answer: codeSentSchema,
    errors: ["CODE_COOLDOWN", "MAIL_FAILED"],
  }),
  "POST /auth/verify-email": endpoint({
    body: verifyEmailSchema,
    answer: verifyEmailResultSchema,
    errors: ["INVALID_CODE", "CODE_EXPIRED", "TOO_MANY_ATTEMPTS"],
  }),
  "POST /me/password": endpoint({
    body: changePasswordSchema,
    answer: null,
    errors: ["INVALID_PASSWORD"],
  }),
  "POST /me/two-factor/confirm": endpoint({
    body: twoFactorConfirmSchema,
    answer: userAnswerSchema,
    errors: ["INVALID_TWO_FACTOR_CODE", "TWO_FACTOR_NOT_ENABLED"],
  }),
  "POST /me/two-factor/disable": endpoint({
    body: passwordConfirmSchema,
    answer: userAnswerSchema,
    errors: ["INVALID_PASSWORD", "TWO_FACTOR_NOT_ENABLED"],
  }),
  "POST /me/two-factor/enable": endpoint({
    body: passwordConfirmSchema,
    answer: twoFactorSetupSchema,
    errors: ["INVALID_PASSWORD", "TWO_FACTOR_ALREADY_ENABLED"],
  }),
} as const;
