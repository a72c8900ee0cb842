import type { LicenseCheckStatus, LicenseStatus } from "#domain/license-schemas";
import { type StatusFacts, type SubscriptionStatus, unpaidRenewalEndsAt } from "#domain/subscriptions";

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
 * How many machines one licence may be activated on at once: one. Stackbay issues one licence per unit
 * bought (`issueLicenses`: an item of quantity 3 gets three keys) and keeps a per-seat subscription's
 * keys one per seat (`matchLicensesToSeats`: a quantity of 5 seats is five keys), so the item's or the
 * subscription's quantity is already the number of keys, and each key is one seat. `licenses.seats`
 * stores the figure per licence, so the seat check reads it from the row it locks.
 */
export const SEATS_PER_LICENSE = 1;

/**
 * What the public check says of a key: a revoked key is revoked whatever else holds, then a key its
 * seller suspended; a key of a subscription reads as the subscription does at the time of the check (its
 * trial, its unpaid renewal in grace, its end), or `over_cap` while a live metered subscription is at its
 * buyer's spending cap (`overCap`); a perpetual licence (no subscription) stays active.
 */
export function licenseCheckStatus(
  license: LicenseStatus,
  subscription: SubscriptionStatus | null,
  { overCap = false }: { overCap?: boolean } = {},
): LicenseCheckStatus {
  if (license === "revoked") return "revoked";
  if (license === "suspended") return "suspended";
  if (overCap && subscription !== null && subscription !== "ended") return "over_cap";
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

/** How many days a machine may go unseen before the daily job frees its seat, unless configured. */
export const DEFAULT_LICENSE_ACTIVATION_STALE_DAYS = 30;

/**
 * Until when a signed offline licence holds: a perpetual licence's never (null); a subscription's
 * until the end of its paid period (or trial) plus the grace an unpaid renewal gets before the
 * subscription ends (its last reminder, as `past_due` reads), or only the paid period's end when it is
 * cancelled for then.
 */
export function licenseFileExpiresAt(
  subscription: Pick<StatusFacts, "paidThrough" | "cancelAtPeriodEnd"> | null,
): Date | null {
  if (!subscription) return null;
  return subscription.cancelAtPeriodEnd
    ? subscription.paidThrough
    : unpaidRenewalEndsAt(subscription.paidThrough);
}
