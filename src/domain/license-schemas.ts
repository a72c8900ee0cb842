import { z } from "zod";

export const licenseStatuses = ["active", "revoked"] as const;
export type LicenseStatus = (typeof licenseStatuses)[number];

/** One of the buyer's licenses as `GET /api/licenses` answers it; dates are ISO strings. */
export const licenseSchema = z.object({
  id: z.string(),
  key: z.string(),
  productId: z.string().nullable(),
  productName: z.string(),
  orderId: z.string(),
  status: z.enum(licenseStatuses),
  issuedAt: z.string(),
  /** Subscriptions renew yearly; perpetual licenses have none. */
  renewsAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type License = z.infer<typeof licenseSchema>;

export const licenseListSchema = z.object({ items: z.array(licenseSchema) });
export type LicenseList = z.infer<typeof licenseListSchema>;

export const MAX_LICENSE_KEY_INPUT = 64;

/** The public check's limit: checks a minute from one address. */
export const LICENSE_CHECKS_PER_MINUTE = 60;

/** What vendors' software sends to check a key; any string up to 64 characters is a fair question. */
export const licenseCheckSchema = z.object({
  key: z
    .string({ error: "Send the license key as a string" })
    .max(MAX_LICENSE_KEY_INPUT, `A license key is at most ${MAX_LICENSE_KEY_INPUT} characters`),
});

/**
 * What a key is when checked: `active` (a perpetual license, or a subscription paid for its period),
 * `trialing` (a subscription in its free trial), `past_due` (its renewal unpaid, inside the grace its
 * retries give), `expired` (its subscription ended), `revoked` (refunded, or a seat removed) or
 * `unknown`. The first three are valid.
 */
export const licenseCheckStatuses = [
  "active",
  "trialing",
  "past_due",
  "expired",
  "revoked",
  "unknown",
] as const;
export type LicenseCheckStatus = (typeof licenseCheckStatuses)[number];

/** What each status means for the software that asked, as the developers' page explains it. */
export const licenseCheckStatusMeaning: Record<LicenseCheckStatus, string> = {
  active: "Paid for: a perpetual license, or a subscription paid for its current period.",
  trialing: "A subscription in its free trial.",
  past_due:
    "The subscription's renewal is unpaid and its reminders are running; it stays valid until the subscription ends.",
  expired: "The subscription has ended.",
  revoked: "The key was withdrawn: its purchase refunded, or its seat removed.",
  unknown: "No such key (a mistyped or malformed key answers the same).",
};

/** The answer: whether the key is good, and for what; deliberately nothing about who holds it. */
export const licenseCheckAnswerSchema = z.object({
  valid: z.boolean(),
  status: z.enum(licenseCheckStatuses),
  product: z.string().nullable(),
  renewsAt: z.string().nullable(),
});
export type LicenseCheckAnswer = z.infer<typeof licenseCheckAnswerSchema>;
