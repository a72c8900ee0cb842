import { randomBytes } from "node:crypto";
import { describe, expect, test } from "vitest";
import {
  generateLicenseKey,
  LICENSE_ALPHABET,
  LICENSE_KEY_PATTERN,
  licenseCheckStatus,
  licenseFileExpiresAt,
  normaliseLicenseKey,
  VALID_LICENSE_STATUSES,
} from "#domain/licenses";
import { unpaidRenewalEndsAt } from "#domain/subscriptions";

describe("license keys", () => {
  test("have the XXXX-XXXX-XXXX-XXXX shape with unambiguous characters", () => {
    for (let i = 0; i < 200; i++) {
      const key = generateLicenseKey(randomBytes);
      expect(key).toMatch(LICENSE_KEY_PATTERN);
      expect(key).not.toMatch(/[01OIL]/);
    }
  });

  test("are unique across many draws", () => {
    const keys = new Set(Array.from({ length: 20_000 }, () => generateLicenseKey(randomBytes)));
    expect(keys.size).toBe(20_000);
  });

  test("skip biased bytes instead of folding them onto the alphabet", () => {
    // 248..255 are above the largest multiple of 31 and must be discarded, not mapped to characters.
    let call = 0;
    const source = (size: number) => new Uint8Array(size).fill(call++ === 0 ? 255 : 0);
    expect(generateLicenseKey(source)).toBe(
      `${LICENSE_ALPHABET[0]?.repeat(4)}-${LICENSE_ALPHABET[0]?.repeat(4)}-${LICENSE_ALPHABET[0]?.repeat(4)}-${LICENSE_ALPHABET[0]?.repeat(4)}`,
    );
    expect(call).toBe(2);
  });

  test("typed keys are normalised before lookup", () => {
    expect(normaliseLicenseKey("  7kq2-m9xh-4trw-pbc3 ")).toBe("7KQ2-M9XH-4TRW-PBC3");
  });
});

describe("what the public check says of a key", () => {
  test.each([
    ["active", null, "active"],
    ["active", "active", "active"],
    ["active", "cancelling", "active"],
    ["active", "trialing", "trialing"],
    ["active", "past_due", "past_due"],
    ["active", "ended", "expired"],
    ["revoked", null, "revoked"],
    ["revoked", "active", "revoked"],
    ["revoked", "trialing", "revoked"],
    ["suspended", null, "suspended"],
    ["suspended", "active", "suspended"],
    ["suspended", "ended", "suspended"],
  ] as const)("a %s key of a %s subscription reads %s", (license, subscription, status) => {
    expect(licenseCheckStatus(license, subscription)).toBe(status);
  });

  test.each([
    ["active", "active", "over_cap"],
    ["active", "past_due", "over_cap"],
    ["active", "ended", "expired"],
    ["active", null, "active"],
    ["suspended", "active", "suspended"],
    ["revoked", "active", "revoked"],
  ] as const)(
    "at its spending cap, a %s key of a %s subscription reads %s",
    (license, subscription, status) => {
      expect(licenseCheckStatus(license, subscription, { overCap: true })).toBe(status);
    },
  );

  test("an offline file lasts a perpetual licence for ever, a subscription its paid period and grace", () => {
    const paidThrough = new Date("2026-03-01T00:00:00Z");
    expect(licenseFileExpiresAt(null)).toBeNull();
    expect(licenseFileExpiresAt({ paidThrough, cancelAtPeriodEnd: false })).toEqual(
      unpaidRenewalEndsAt(paidThrough),
    );
    expect(licenseFileExpiresAt({ paidThrough, cancelAtPeriodEnd: true })).toEqual(paidThrough);
  });

  test("software may go on working while active, trialing or past due, not once expired or revoked", () => {
    expect([...VALID_LICENSE_STATUSES].sort()).toEqual(["active", "past_due", "trialing"]);
  });
});
