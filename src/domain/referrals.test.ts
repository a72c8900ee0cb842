import { randomBytes } from "node:crypto";
import { describe, expect, test } from "vitest";
import { ATTRIBUTION_DAYS } from "#domain/commissions";
import { DAY_MS } from "#domain/dates";
import { generateReferralCode, REFERRAL_CODE_PATTERN, withinAttribution } from "#domain/referrals";

describe("referral codes", () => {
  test("are 10 lower-case letters and digits, different every time", () => {
    const codes = new Set(Array.from({ length: 500 }, () => generateReferralCode(randomBytes)));
    expect(codes.size).toBe(500);
    for (const code of codes) expect(code).toMatch(REFERRAL_CODE_PATTERN);
  });

  test("skip bytes that would bias the alphabet", () => {
    // 252..255 are above the last multiple of 36 and must be dropped, not wrapped onto "a".."d".
    const bytes = [255, 254, 253, 252, 0, 1, 35, 36, 71, 251, 2, 3, 4];
    let at = 0;
    const source = (size: number) => Uint8Array.from({ length: size }, () => bytes[at++ % bytes.length] ?? 0);
    expect(generateReferralCode(source)).toBe("ab9a99cdea");
  });
});

describe("attribution window", () => {
  const now = new Date("2025-06-30T12:00:00Z");
  test.each([
    [0, true],
    [ATTRIBUTION_DAYS - 1, true],
    [ATTRIBUTION_DAYS, true],
    [ATTRIBUTION_DAYS + 0.01, false],
    [-1, false],
  ])("a click %d days before the order earns: %s", (days, earns) => {
    expect(withinAttribution(new Date(now.getTime() - days * DAY_MS), now)).toBe(earns);
  });
});
