import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { countLabel } from "#domain/marketplace-stats";

describe("countLabel", () => {
  test.each([
    [0, "0"],
    [7, "7"],
    [10, "10+"],
    [65, "60+"],
    [99, "90+"],
    [100, "100+"],
    [512, "500+"],
    [2_788, "2,000+"],
    [9_999, "9,000+"],
    [10_000, "10K+"],
    [12_345, "12K+"],
    [999_999, "999K+"],
    [1_234_567, "1M+"],
  ])("%i reads %j", (count, label) => {
    expect(countLabel(count)).toBe(label);
  });

  test("never states more than the count", () => {
    fc.assert(
      fc.property(fc.nat({ max: 50_000_000 }), (n) => {
        const label = countLabel(n);
        const [, digits = "", suffix = ""] = /^([\d,]+)(K|M)?\+?$/.exec(label) ?? [];
        const stated =
          Number(digits.replaceAll(",", "")) * (suffix === "K" ? 1_000 : suffix === "M" ? 1_000_000 : 1);
        expect(stated).toBeLessThanOrEqual(n);
        // And not far less: at least the leading digit's worth (a tenth of it for K and M above them).
        expect(stated).toBeGreaterThan(n / 10 - 1);
      }),
    );
  });
});
