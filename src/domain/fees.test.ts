import { describe, expect, test } from "vitest";
import { DEFAULT_FEE_RATE, feeRateFor, feeRuleInputSchema, percentToRate } from "#domain/fees";
import { formatRatePercent } from "#domain/money";

describe("fee rules", () => {
  const rules = [
    { scope: "default" as const, subject: "", rate: "0.0800" },
    { scope: "category" as const, subject: "hardware", rate: "0.0500" },
    { scope: "seller" as const, subject: "s1", rate: "0.0300" },
  ];

  test("a seller's rate beats the category's, which beats the default", () => {
    expect(feeRateFor(rules, { sellerId: "s1", category: "hardware" })).toEqual({
      rate: "0.0300",
      scope: "seller",
    });
    expect(feeRateFor(rules, { sellerId: "s2", category: "hardware" })).toEqual({
      rate: "0.0500",
      scope: "category",
    });
    expect(feeRateFor(rules, { sellerId: "s2", category: "saas" })).toEqual({
      rate: "0.0800",
      scope: "default",
    });
    expect(feeRateFor(rules, { sellerId: null, category: null })).toEqual({
      rate: "0.0800",
      scope: "default",
    });
  });

  test("without rules the built-in 10% applies", () => {
    expect(feeRateFor([], { sellerId: "s1", category: "saas" })).toEqual({
      rate: DEFAULT_FEE_RATE,
      scope: "built-in",
    });
  });

  test("percent input: 0 to 50 with two decimals, stored as a four-place rate", () => {
    expect(percentToRate(12.5)).toBe("0.1250");
    expect(percentToRate(0.01)).toBe("0.0001");
    expect(formatRatePercent("0.1250")).toBe("12.5%");
    expect(formatRatePercent("0.0300")).toBe("3%");
    expect(feeRuleInputSchema.safeParse({ scope: "default", percent: 50.01 }).success).toBe(false);
    expect(feeRuleInputSchema.safeParse({ scope: "default", percent: 1.005 }).success).toBe(false);
    expect(feeRuleInputSchema.safeParse({ scope: "default", percent: -1 }).success).toBe(false);
    expect(feeRuleInputSchema.safeParse({ scope: "seller", sellerEmail: "x", percent: 5 }).success).toBe(
      false,
    );
    expect(feeRuleInputSchema.parse({ scope: "seller", sellerEmail: " A@B.co ", percent: 5 })).toEqual({
      scope: "seller",
      sellerEmail: "a@b.co",
      percent: 5,
    });
  });
});
