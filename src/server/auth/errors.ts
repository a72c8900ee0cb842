import { APIError } from "better-auth";
import type { ServerErrorCode } from "#domain/error-codes";
import { AppError } from "#server/errors";

const INVALID_CODE = "The verification code is incorrect or has expired.";
const INVALID_TWO_FACTOR =
  "That code is not valid. Check your authenticator app or backup codes and try again.";

/** better-auth's error codes in our words and shape; unknown ones stay errors (500, logged). */
const translations: Record<string, [status: number, code: ServerErrorCode, message: string]> = {
  INVALID_EMAIL_OR_PASSWORD: [401, "INVALID_CREDENTIALS", "Invalid email or password."],
  EMAIL_NOT_VERIFIED: [
    403,
    "EMAIL_NOT_VERIFIED",
    "Please verify your email before logging in. Check your inbox for the verification code.",
  ],
  ACCOUNT_DISABLED: [403, "ACCOUNT_DISABLED", "This account has been disabled. Please contact support."],
  INVALID_OTP: [400, "INVALID_CODE", INVALID_CODE],
  OTP_EXPIRED: [400, "CODE_EXPIRED", "Code has expired. Please request a new code."],
  TOO_MANY_ATTEMPTS: [429, "TOO_MANY_ATTEMPTS", "Too many incorrect attempts. Please request a new code."],
  USER_NOT_FOUND: [400, "INVALID_CODE", INVALID_CODE],
  INVALID_PASSWORD: [400, "INVALID_PASSWORD", "Your current password is incorrect."],
  CREDENTIAL_ACCOUNT_NOT_FOUND: [400, "INVALID_PASSWORD", "Your current password is incorrect."],
  PASSWORD_TOO_SHORT: [400, "VALIDATION_ERROR", "Password must be at least 6 characters long"],
  PASSWORD_TOO_LONG: [400, "VALIDATION_ERROR", "Password must be at most 128 characters long"],
  INVALID_CODE: [400, "INVALID_TWO_FACTOR_CODE", INVALID_TWO_FACTOR],
  INVALID_BACKUP_CODE: [400, "INVALID_TWO_FACTOR_CODE", INVALID_TWO_FACTOR],
  TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE: [
    429,
    "TOO_MANY_ATTEMPTS",
    "Too many incorrect codes. Please log in again.",
  ],
  ACCOUNT_TEMPORARILY_LOCKED: [
    429,
    "TOO_MANY_ATTEMPTS",
    "Too many incorrect codes. Two-factor sign-in is locked for a while; please try again later.",
  ],
  INVALID_TWO_FACTOR_COOKIE: [401, "TWO_FACTOR_EXPIRED", "Your sign-in has timed out. Please log in again."],
  TOTP_ALREADY_ENABLED: [409, "TWO_FACTOR_ALREADY_ENABLED", "Two-factor authentication is already on."],
  TOTP_NOT_ENABLED: [400, "TWO_FACTOR_NOT_ENABLED", "Two-factor authentication is not set up."],
  TWO_FACTOR_NOT_ENABLED: [400, "TWO_FACTOR_NOT_ENABLED", "Two-factor authentication is not set up."],
  UNAUTHORIZED: [401, "UNAUTHORIZED", "You need to sign in first."],
  FAILED_TO_GET_SESSION: [401, "UNAUTHORIZED", "You need to sign in first."],
  SESSION_EXPIRED: [401, "UNAUTHORIZED", "Your session has expired. Please log in again."],
};

export function translateAuthError(error: unknown): AppError | null {
  if (!(error instanceof APIError)) return null;
  const code = typeof error.body?.code === "string" ? error.body.code : "";
  const known = translations[code];
  return known ? new AppError(...known) : null;
}
