import { z } from "zod";
import { paged } from "#domain/paging";

/** A licence as stored: in use, suspended by its seller (reinstatable), or withdrawn for good. */
export const licenseStatuses = ["active", "suspended", "revoked"] as const;
export type LicenseStatus = (typeof licenseStatuses)[number];

/** One machine a licence is activated on. */
export const licenseActivationSchema = z.object({
  id: z.string(),
  /** The identifier the seller's software chose for the machine. */
  machine: z.string(),
  label: z.string(),
  activatedAt: z.string(),
  /** The machine's last activation or check with its identifier. */
  lastSeenAt: z.string(),
});
export type LicenseActivation = z.infer<typeof licenseActivationSchema>;

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
  /** How many machines it may be activated on at once. */
  seats: z.number(),
  /** The machines it is activated on, most recently seen first. */
  activations: z.array(licenseActivationSchema),
});
export type License = z.infer<typeof licenseSchema>;

export const licenseListSchema = z.object({ items: z.array(licenseSchema) });
export type LicenseList = z.infer<typeof licenseListSchema>;

export const MAX_LICENSE_KEY_INPUT = 64;

/** The public check's limit: checks a minute from one address. */
export const LICENSE_CHECKS_PER_MINUTE = 60;

const keyInput = z
  .string({ error: "Send the license key as a string" })
  .max(MAX_LICENSE_KEY_INPUT, `A license key is at most ${MAX_LICENSE_KEY_INPUT} characters`);

export const MAX_MACHINE_ID = 200;
export const MAX_MACHINE_LABEL = 100;

/** The identifier the seller's software chose for a machine: 1 to 200 characters, kept as sent. */
const machineInput = z
  .string({ error: "Send the machine's identifier as a string" })
  .min(1, "The machine's identifier is required")
  .max(MAX_MACHINE_ID, `A machine's identifier is at most ${MAX_MACHINE_ID} characters`);

/**
 * What vendors' software sends to check a key; any string up to 64 characters is a fair question. With
 * `machine`, the check also says whether that machine is activated and records it as seen now.
 */
export const licenseCheckSchema = z.object({ key: keyInput, machine: machineInput.optional() });

/** Activating a key on a machine: its identifier and, optionally, a name people recognise. */
export const licenseActivateSchema = z.object({
  key: keyInput,
  machine: machineInput,
  label: z
    .string({ error: "Send the label as a string" })
    .trim()
    .max(MAX_MACHINE_LABEL, `A label is at most ${MAX_MACHINE_LABEL} characters`)
    .default(""),
});

/** Deactivating a machine, which frees its seat. */
export const licenseDeactivateSchema = z.object({ key: keyInput, machine: machineInput });

/**
 * What a key is when checked: `active` (a perpetual license, or a subscription paid for its period),
 * `trialing` (a subscription in its free trial), `past_due` (its renewal unpaid, inside the grace its
 * retries give), `suspended` (its seller suspended it), `over_cap` (a metered subscription at its
 * buyer's spending cap), `expired` (its subscription ended), `revoked` (refunded, or a seat removed) or
 * `unknown`. The first three are valid.
 */
export const licenseCheckStatuses = [
  "active",
  "trialing",
  "past_due",
  "suspended",
  "over_cap",
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
  suspended: "The seller suspended the license; it stays unusable until the seller reinstates it.",
  over_cap:
    "The buyer's spending cap for this metered subscription is reached; the seller's service should stop or throttle until the buyer raises it.",
  expired: "The subscription has ended.",
  revoked: "The key was withdrawn: its purchase refunded, or its seat removed.",
  unknown: "No such key (a mistyped or malformed key answers the same).",
};

/**
 * The answer: whether the key is good, and for what; deliberately nothing about who holds it. `seats` and
 * `seatsUsed` are null for an unknown key; `activated` says whether the `machine` sent is activated (null
 * when none was sent, or the key is unknown).
 */
export const licenseCheckAnswerSchema = z.object({
  valid: z.boolean(),
  status: z.enum(licenseCheckStatuses),
  product: z.string().nullable(),
  renewsAt: z.string().nullable(),
  seats: z.number().nullable(),
  seatsUsed: z.number().nullable(),
  activated: z.boolean().nullable(),
});
export type LicenseCheckAnswer = z.infer<typeof licenseCheckAnswerSchema>;

/** An activation's answer: the key's state, its seats, and the machine as now recorded. */
export const licenseActivationAnswerSchema = z.object({
  valid: z.literal(true),
  status: z.enum(licenseCheckStatuses),
  product: z.string(),
  seats: z.number(),
  seatsUsed: z.number(),
  activation: licenseActivationSchema.omit({ id: true }),
});
export type LicenseActivationAnswer = z.infer<typeof licenseActivationAnswerSchema>;

/** A deactivation's answer: the seats now used. */
export const licenseDeactivationAnswerSchema = z.object({ seats: z.number(), seatsUsed: z.number() });

/**
 * A signed offline licence (`GET /licenses/:id/file`): `payload` is a JSON text, signed as its exact UTF-8
 * bytes with Ed25519 by the platform key `kid` published at `LICENSE_KEYS_PATH`; software verifies the
 * signature over `payload` as sent, then parses it.
 */
export const licenseFileSchema = z.object({
  format: z.literal("stackbay-license/1"),
  kid: z.string(),
  alg: z.literal("EdDSA"),
  payload: z.string(),
  signature: z.string(),
});
export type LicenseFile = z.infer<typeof licenseFileSchema>;

/**
 * What a licence file's `payload` holds once parsed: `issuedAt` is when this file was signed, `status`
 * the key's check status then, and `expiresAt` the moment the file stops holding (null for a perpetual
 * licence).
 */
export const licenseFilePayloadSchema = z.object({
  licenseId: z.string(),
  key: z.string(),
  productId: z.string().nullable(),
  productName: z.string(),
  seats: z.number(),
  status: z.enum(licenseCheckStatuses),
  issuedAt: z.string(),
  expiresAt: z.string().nullable(),
});
export type LicenseFilePayload = z.infer<typeof licenseFilePayloadSchema>;

/** Where the platform's licence-signing public keys are published, at the site's root. */
export const LICENSE_KEYS_PATH = "/.well-known/stackbay-license-keys.json";

/** The published keys, as a JWK set of Ed25519 public keys (`x`: the raw key in base64url). */
export const licenseKeySetSchema = z.object({
  keys: z.array(
    z.object({
      kid: z.string(),
      kty: z.literal("OKP"),
      crv: z.literal("Ed25519"),
      alg: z.literal("EdDSA"),
      use: z.literal("sig"),
      x: z.string(),
    }),
  ),
});
export type LicenseKeySet = z.infer<typeof licenseKeySetSchema>;

/** A licence as its seller sees it through the seller API: its key, state and seats in use. */
export const sellerLicenseSchema = z.object({
  id: z.string(),
  key: z.string(),
  productId: z.string().nullable(),
  productName: z.string(),
  orderId: z.string(),
  status: z.enum(licenseStatuses),
  seats: z.number(),
  seatsUsed: z.number(),
  issuedAt: z.string(),
  renewsAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  suspendedAt: z.string().nullable(),
});
export type SellerLicense = z.infer<typeof sellerLicenseSchema>;

/** One licence with the machines it is activated on. */
export const sellerLicenseDetailSchema = sellerLicenseSchema.extend({
  activations: z.array(licenseActivationSchema),
});
export type SellerLicenseDetail = z.infer<typeof sellerLicenseDetailSchema>;

export const sellerLicensePageSchema = paged(sellerLicenseSchema);
export type SellerLicensePage = z.infer<typeof sellerLicensePageSchema>;
