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

/** What vendors' software sends to check a key; any string up to 64 characters is a fair question. */
export const licenseCheckSchema = z.object({
  key: z
    .string({ error: "Send the license key as a string" })
    .max(MAX_LICENSE_KEY_INPUT, `A license key is at most ${MAX_LICENSE_KEY_INPUT} characters`),
});

/** The answer: whether the key is good, and for what; deliberately nothing about who holds it. */
export const licenseCheckAnswerSchema = z.object({
  valid: z.boolean(),
  status: z.enum(["active", "revoked", "unknown"]),
  product: z.string().nullable(),
  renewsAt: z.string().nullable(),
});
export type LicenseCheckAnswer = z.infer<typeof licenseCheckAnswerSchema>;
