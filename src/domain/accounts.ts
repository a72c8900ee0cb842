import { z } from "zod";
import { type CurrencyCode, currencies } from "#domain/currency";
import { emailField } from "#domain/newsletter";
import { themes } from "#domain/themes";

/** Verification and reset codes: 6 digits, valid 10 minutes, a new one at most every 60 seconds. */
export const CODE_LENGTH = 6;
export const CODE_TTL_SECONDS = 600;
export const RESEND_COOLDOWN_SECONDS = 60;
/** Wrong guesses allowed on one code; after that the code is void and a new one is needed. */
export const CODE_ATTEMPTS = 5;
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 128;

export const accountTypes = [
  { value: "buyer", label: "Buyer" },
  { value: "seller", label: "Seller" },
] as const;
export type AccountType = (typeof accountTypes)[number]["value"];

/** An address as we store and compare it: trimmed, lower case. */
export const accountEmail = emailField.transform((email) => email.toLowerCase());

const password = z
  .string({ error: "Password is required" })
  .min(1, "Password is required")
  .min(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters long`)
  .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters long`);

const requiredName = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(80, `${label} must be at most 80 characters`);

/**
 * Sign-up, in the spec's order (first name, last name, e-mail, password), so the first issue is the
 * one the form reports. Role flags other than buyer/seller are not part of it: extra keys are dropped.
 */
export const signUpSchema = z.object({
  firstName: requiredName("First name"),
  lastName: requiredName("Last name"),
  email: accountEmail,
  password,
  accountType: z.enum(["buyer", "seller"], { error: "Please choose buyer or seller" }).default("buyer"),
});
export type SignUpInput = z.input<typeof signUpSchema>;

export const signInSchema = z.object({
  email: accountEmail,
  password: z.string({ error: "Password is required" }).min(1, "Password is required").max(PASSWORD_MAX),
});
export type SignInInput = z.input<typeof signInSchema>;

export const codeField = z
  .string({ error: "Please enter the complete 6-digit verification code." })
  .trim()
  .regex(/^\d{6}$/, "Please enter the complete 6-digit verification code.");

export const emailOnlySchema = z.object({
  email: z
    .string({ error: "Please enter your email address." })
    .trim()
    .min(1, "Please enter your email address.")
    .pipe(accountEmail),
});
export type EmailOnlyInput = z.input<typeof emailOnlySchema>;

export const verifyEmailSchema = emailOnlySchema.extend({ code: codeField });
export type VerifyEmailInput = z.input<typeof verifyEmailSchema>;

export const resetPasswordSchema = emailOnlySchema.extend({ code: codeField, password });
export type ResetPasswordInput = z.input<typeof resetPasswordSchema>;

export const changePasswordSchema = z.object({
  currentPassword: z.string().min(1, "Current password is required").max(PASSWORD_MAX),
  newPassword: password,
});
export type ChangePasswordInput = z.input<typeof changePasswordSchema>;

/** A 6-digit authenticator code, or one of the backup codes (letters, digits and a dash). */
export const twoFactorCodeSchema = z.object({
  code: z
    .string()
    .trim()
    .min(6, "Enter the 6-digit code from your authenticator app or a backup code.")
    .max(32, "Enter the 6-digit code from your authenticator app or a backup code."),
  trustDevice: z.boolean().optional().default(false),
});
export type TwoFactorCodeInput = z.input<typeof twoFactorCodeSchema>;

export const passwordConfirmSchema = z.object({
  password: z.string().min(1, "Enter your password to confirm.").max(PASSWORD_MAX),
});
export type PasswordConfirmInput = z.input<typeof passwordConfirmSchema>;

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `Must be at most ${max} characters`)
    .transform((value) => (value === "" ? null : value))
    .nullable()
    .optional();

/** Profile edit: the spec sets no rules beyond the e-mail being read-only; we bound lengths. */
export const profileSchema = z.object({
  firstName: requiredName("First name"),
  lastName: requiredName("Last name"),
  phone: optionalText(40),
  address: optionalText(200),
  city: optionalText(100),
  country: optionalText(100),
});
export type ProfileInput = z.input<typeof profileSchema>;

export const notificationSettingsSchema = z.object({
  emailNotifications: z.boolean(),
  orderUpdates: z.boolean(),
  marketingEmails: z.boolean(),
});
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;

export const defaultNotificationSettings: NotificationSettings = {
  emailNotifications: true,
  orderUpdates: true,
  marketingEmails: false,
};

export { themes };
export const themeSchema = z.enum(themes, { error: "Theme must be light, dark or system" });
export type Theme = z.infer<typeof themeSchema>;

/** Any subset of the preferences; the server merges it into what is stored. */
export const preferencesSchema = z
  .object({
    currency: z.enum(currencies.map((c) => c.code) as [CurrencyCode, ...CurrencyCode[]], {
      error: "The selected currency is not supported.",
    }),
    theme: themeSchema,
    notifications: notificationSettingsSchema,
  })
  .partial();
export type PreferencesInput = z.input<typeof preferencesSchema>;

export const rolesSchema = z.object({
  isBuyer: z.boolean(),
  isSeller: z.boolean(),
  isReseller: z.boolean(),
  isAdmin: z.boolean(),
  isSuperAdmin: z.boolean(),
});
export type Roles = z.infer<typeof rolesSchema>;

/** The public shape of a user (`GET /api/me`); no hash, token or internal column can slip through. */
export const meSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  phone: z.string().nullable(),
  address: z.string().nullable(),
  city: z.string().nullable(),
  country: z.string().nullable(),
  emailVerified: z.boolean(),
  twoFactorEnabled: z.boolean(),
  createdAt: z.string(),
  roles: rolesSchema,
  preferences: z.object({
    currency: z.enum(currencies.map((c) => c.code) as [CurrencyCode, ...CurrencyCode[]]),
    theme: themeSchema.nullable(),
    notifications: notificationSettingsSchema,
  }),
});
export type Me = z.infer<typeof meSchema>;

/** Verified; `user` is set when the same browser that signed up was signed in by the code. */
export const verifyEmailResultSchema = z.object({ verified: z.literal(true), user: meSchema.nullable() });
export type VerifyEmailResult = z.infer<typeof verifyEmailResultSchema>;

/** Every account call that changes or starts the session answers with the user as it now is. */
export const userAnswerSchema = z.object({ user: meSchema });
export type UserAnswer = z.infer<typeof userAnswerSchema>;
/** `GET /api/me`: null for a visitor. */
export const currentUserAnswerSchema = z.object({ user: meSchema.nullable() });
export type CurrentUserAnswer = z.infer<typeof currentUserAnswerSchema>;
/** `POST /api/auth/sign-in`: the session started, or the account has two-factor on and the code is asked next. */
export const signInResultSchema = z.union([
  userAnswerSchema,
  z.object({ twoFactorRequired: z.literal(true) }),
]);
export type SignInResult = z.infer<typeof signInResultSchema>;

/** A code was e-mailed (or, for an unknown address, the same answer): how long it lasts and when to resend. */
export const codeSentSchema = z.object({
  sent: z.literal(true),
  expiresInSeconds: z.number(),
  cooldownSeconds: z.number(),
});
export type CodeSent = z.infer<typeof codeSentSchema>;
export { hasRole, type Role } from "#domain/roles";

/** m:ss for the verification countdown: 600 → "10:00", 59 → "0:59". */
export function formatCountdown(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/** Deleting your own account: the password again, and the authenticator code when two-factor is on. */
export const deleteAccountSchema = z.object({
  password: z.string({ error: "Please enter your password." }).min(1, "Please enter your password."),
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, "Enter the 6-digit code from your app.")
    .optional(),
});
export type DeleteAccountInput = z.input<typeof deleteAccountSchema>;

/** Why an account cannot be deleted yet; each has its own message (see the privacy service). */
export const deletionBlockers = [
  "order_in_progress",
  "refund_open",
  "shipment_undelivered",
  "balance_not_zero",
  "payout_in_transit",
] as const;
export type DeletionBlocker = (typeof deletionBlockers)[number];

const exportRows = z.array(z.record(z.string(), z.unknown()));

/**
 * "Download my data" (GET /api/me/export): everything Stackbay holds about the account, its own rows
 * only. License keys and payout details are masked; hashes, secrets and tokens are never included.
 */
export const accountExportSchema = z.object({
  exportedAt: z.string(),
  profile: meSchema,
  orders: exportRows,
  licenses: exportRows,
  refundRequests: exportRows,
  reviews: exportRows,
  questions: exportRows,
  savedProducts: exportRows,
  storefront: z.record(z.string(), z.unknown()).nullable(),
  earnings: z.array(
    z.object({ role: z.enum(["seller", "reseller"]), pendingUnits: z.number(), availableUnits: z.number() }),
  ),
  commissions: exportRows,
  payouts: exportRows,
  payoutMethod: z.record(z.string(), z.unknown()).nullable(),
  auditTrail: exportRows,
});
export type AccountExport = z.infer<typeof accountExportSchema>;
