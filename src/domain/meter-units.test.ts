import { describe, expect, test } from "vitest";
import { listedPriceLabel, listedPriceParts } from "#domain/meter-units";
import { payAsYouGoOf } from "#domain/metering";
import { formatUnitPrice } from "#domain/money";
import { planInputSchema } from "#domain/plan-schemas";

const usd = (amount: string) => formatUnitPrice(amount);
const meter = (...prices: string[]) => ({
  unit: "call" as const,
  tiers: prices.map((unitPrice, i) => ({ upTo: i === prices.length - 1 ? null : (i + 1) * 1000, unitPrice })),
});

describe("a listing priced by use alone (decision 0029)", () => {
  test("only a metered plan without a fee is pay as you go", () => {
    expect(payAsYouGoOf({ price: "0.00", meter: meter("0.004") })).toEqual({
      unit: "call",
      unitPrice: "0.0040",
      tiered: false,
    });
    expect(payAsYouGoOf({ price: "29.00", meter: meter("0.004") })).toBeNull();
    expect(payAsYouGoOf({ price: 0, meter: null })).toBeNull();
  });

  test("reads its unit price, with From when tiers differ, never $0 a month", () => {
    const one = payAsYouGoOf({ price: "0", meter: meter("0.004") });
    const tiered = payAsYouGoOf({ price: "0", meter: meter("0.004", "0.002", "0.003") });
    if (!one || !tiered) throw new Error("not pay as you go");
    expect(listedPriceLabel(one, usd)).toBe("$0.004 / call, pay as you go");
    expect(listedPriceLabel(tiered, usd)).toBe("From $0.002 / call, pay as you go");
    expect(listedPriceParts({ unit: "gb", unitPrice: "1.5", tiered: false }, usd)).toEqual({
      prefix: "",
      figure: "$1.50",
      suffix: " / GB, pay as you go",
    });
  });

  test("a plan's fee may be $0 only with a meter", () => {
    const free = planInputSchema.safeParse({ name: "Free", interval: "month", price: 0 });
    expect(free.success).toBe(false);
    expect(free.error?.issues[0]).toMatchObject({ path: ["price"] });
    expect(free.error?.issues[0]?.message).toContain("unless the plan is metered");
    // Said even when another field is wrong too.
    const both = planInputSchema.safeParse({ name: "Free", interval: "month", price: 0, trialDays: 91 });
    expect(both.error?.issues.map((issue) => issue.path.join("."))).toEqual(
      expect.arrayContaining(["price", "trialDays"]),
    );
    const payg = planInputSchema.safeParse({
      name: "Use",
      interval: "month",
      price: 0,
      meter: meter("0.004"),
    });
    expect(payg.success).toBe(true);
    expect(
      planInputSchema.safeParse({ name: "Neg", interval: "month", price: -1, meter: meter("1") }).success,
    ).toBe(false);
  });
});
