import { describe, expect, test } from "vitest";
import { commissionUnits } from "#domain/commissions";

describe("commission", () => {
  test.each([
    ["10% of 120.00", "120.0000", 0.1, 120_000],
    ["12.5% of 19.99", "19.9900", 0.125, 24_988], // 2.49875 → 2.4988, half up
    ["0% earns nothing", "500.0000", 0, 0],
    ["50% of a sub-cent API call", "0.0030", 0.5, 15],
    ["10% of 0.0005 rounds half up", "0.0005", 0.1, 1], // 0.00005 → 0.0001
  ])("%s", (_name, subtotal, rate, units) => {
    expect(commissionUnits(subtotal, rate)).toBe(units);
  });

  test("refuses rates outside 0–50%", () => {
    expect(() => commissionUnits("10", 0.51)).toThrow(RangeError);
    expect(() => commissionUnits("10", -0.01)).toThrow(RangeError);
  });
});
