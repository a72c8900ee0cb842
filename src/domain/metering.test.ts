import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  capLevelsReached,
  meterInputSchema,
  rateUsage,
  type UsageTier,
  usageBatchInputSchema,
  usageRecordInputSchema,
} from "#domain/metering";
import { toUnits } from "#domain/money";

const tiers: UsageTier[] = [
  { upTo: 1000, unitPrice: "0.004" },
  { upTo: 10000, unitPrice: "0.003" },
  { upTo: null, unitPrice: "0.002" },
];

describe("rateUsage: graduated tiers to the cent", () => {
  test("each tier's units at its own price", () => {
    expect(rateUsage(0, tiers)).toBe("0.0000");
    expect(rateUsage(1, tiers)).toBe("0.0000"); // $0.004 rounds to no cent
    expect(rateUsage(2, tiers)).toBe("0.0100"); // $0.008 rounds up
    expect(rateUsage(1000, tiers)).toBe("4.0000");
    expect(rateUsage(1001, tiers)).toBe("4.0000"); // $4.003
    expect(rateUsage(10_000, tiers)).toBe("31.0000");
    expect(rateUsage(12_345, tiers)).toBe("35.6900");
    expect(rateUsage(-50, tiers)).toBe("0.0000");
    expect(rateUsage(3, [{ upTo: null, unitPrice: "1.5" }])).toBe("4.5000");
    // Beyond what an amount column holds, rating refuses rather than round.
    expect(() => rateUsage(10 ** 12, [{ upTo: null, unitPrice: "9999.99" }])).toThrow(RangeError);
  });

  test("a flat price is quantity × price, exactly, for any quantity", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 9 }), fc.integer({ min: 1, max: 99_999 }), (q, units) => {
        const price = (units / 10_000).toFixed(4);
        const exact = BigInt(q) * BigInt(units);
        const cents = (exact + 50n) / 100n;
        expect(toUnits(rateUsage(q, [{ upTo: null, unitPrice: price }]))).toBe(Number(cents * 100n));
      }),
    );
  });

  test("splitting use at a tier boundary costs what the tiers say, and more use never costs less", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 5_000_000 }), fc.integer({ min: 0, max: 5000 }), (q, more) => {
        expect(toUnits(rateUsage(q + more, tiers))).toBeGreaterThanOrEqual(toUnits(rateUsage(q, tiers)));
        const exact =
          Math.min(q, 1000) * 40 +
          Math.max(0, Math.min(q, 10_000) - 1000) * 30 +
          Math.max(0, q - 10_000) * 20;
        expect(toUnits(rateUsage(q, tiers))).toBe(Math.round(exact / 100) * 100);
      }),
    );
  });
});

test("cap levels: 50%, 80% and 100% of the cap, none without one", () => {
  expect(capLevelsReached("4.99", "10")).toBe(0);
  expect(capLevelsReached("5", "10")).toBe(1);
  expect(capLevelsReached("8", "10")).toBe(2);
  expect(capLevelsReached("10", "10")).toBe(3);
  expect(capLevelsReached("1000", null)).toBe(0);
});

describe("contracts", () => {
  test("tiers rise, only the last is open, prices have at most four decimals", () => {
    expect(meterInputSchema.safeParse({ unit: "call", tiers }).success).toBe(true);
    const bad = (t: unknown) => meterInputSchema.safeParse({ unit: "call", tiers: t }).success;
    expect(bad([{ upTo: 10, unitPrice: "0.004" }])).toBe(false);
    expect(
      bad([
        { upTo: null, unitPrice: "0.004" },
        { upTo: null, unitPrice: "0.003" },
      ]),
    ).toBe(false);
    expect(
      bad([
        { upTo: 10, unitPrice: "1" },
        { upTo: 10, unitPrice: "1" },
        { upTo: null, unitPrice: "1" },
      ]),
    ).toBe(false);
    expect(bad([{ upTo: null, unitPrice: "0.00001" }])).toBe(false);
    expect(bad([{ upTo: null, unitPrice: "0" }])).toBe(false);
    // Not a price at all (an empty field): one issue, never an exception from reading it as money.
    for (const unitPrice of ["", "abc", "1e3", "fuzz-value"]) {
      const parsed = meterInputSchema.safeParse({ unit: "call", tiers: [{ upTo: null, unitPrice }] });
      expect(parsed.error?.issues.map((issue) => issue.message)).toEqual([
        "A unit price is at most $99.9999, with at most four decimals, e.g. 0.004",
      ]);
    }
  });

  test("a record names one subscription, a correction gives a reason, a batch holds 1 to 1,000", () => {
    const base = { quantity: 1, usedAt: "2026-11-29T10:00:00Z", idempotencyKey: "k" };
    expect(usageRecordInputSchema.safeParse({ ...base, subscriptionId: crypto.randomUUID() }).success).toBe(
      true,
    );
    expect(usageRecordInputSchema.safeParse(base).success).toBe(false);
    expect(
      usageRecordInputSchema.safeParse({ ...base, subscriptionId: crypto.randomUUID(), licenseKey: "X" })
        .success,
    ).toBe(false);
    expect(
      usageRecordInputSchema.safeParse({ ...base, quantity: -1, subscriptionId: crypto.randomUUID() })
        .success,
    ).toBe(false);
    expect(usageBatchInputSchema.safeParse({ records: [] }).success).toBe(false);
  });
});
