import type { LicenseCheckStatus, LicenseStatus } from "#domain/license-schemas";
import type { SubscriptionStatus } from "#domain/subscriptions";

/** Categories whose products deliver a license key on a confirmed order. */
export const LICENSED_CATEGORIES: readonly string[] = ["software", "saas"];

/** Letters and digits that cannot be misread for one another when typed from a screen (no 0/O, 1/I/L). */
export const LICENSE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
export const LICENSE_KEY_PATTERN =
  /^[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{4}(-[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{4}){3}$/;

/**
 * A key like `7KQ2-M9XH-4TRW-PBC3` from 16 random bytes: 31 symbols per character, about 79 bits in all.
 * Each byte is used only when it falls below the largest multiple of 31 (rejection sampling), so every
 * character is equally likely; `random` must be a cryptographic source (crypto.randomBytes on the server).
 */
export function generateLicenseKey(random: (size: number) => Uint8Array): string {
  const limit = 256 - (256 % LICENSE_ALPHABET.length);
  const chars: string[] = [];
  while (chars.length < 16) {
    for (const byte of random(32)) {
      if (byte < limit && chars.length < 16)
        chars.push(LICENSE_ALPHABET[byte % LICENSE_ALPHABET.length] as string);
    }
  }
  return [0, 4, 8, 12].map((i) => chars.slice(i, i + 4).join("")).join("-");
}

/** Normalises a typed key: trimmed, upper case, so `7kq2-m9xh-…` validates. */
export function normaliseLicenseKey(input: string): string {
  return input.trim().toUpperCase();
}

/**
 * What the public check says of a key: a revoked key is revoked whatever else holds; a key of a
 * subscription reads as the subscription does at the time of the check (its trial, its unpaid renewal
 * in grace, its end); a perpetual licence (no subscription) stays active.
 */
export function licenseCheckStatus(
  license: LicenseStatus,
  subscription: SubscriptionStatus | null,
): LicenseCheckStatus {
  if (license === "revoked") return "revoked";
  switch (subscription) {
    case null:
    case "active":
    case "cancelling":
      return "active";
    case "trialing":
      return "trialing";
    case "past_due":
      return "past_due";
    case "ended":
      return "expired";
  }
}

/** The statuses a key may be used in: software should go on working for them. */
export const VALID_LICENSE_STATUSES: ReadonlySet<LicenseCheckStatus> = new Set([
  "active",
  "trialing",
  "past_due",
]);
