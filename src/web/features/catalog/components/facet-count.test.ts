import { describe, expect, test, vi } from "vitest";
import { facetCount } from "#web/features/catalog/components/product-filters";

describe("facetCount", () => {
  test("groups digits without Intl, whose first use is a long task on a phone", () => {
    const localeFormat = vi.spyOn(Number.prototype, "toLocaleString");
    try {
      expect(facetCount(1_234_567, false)).toBe("1,234,567");
      expect(facetCount(1_234_567, true)).toBe("about 1,200,000");
      expect(localeFormat).not.toHaveBeenCalled();
    } finally {
      localeFormat.mockRestore();
    }
  });

  test("exact counts are shown as they are", () => {
    expect(facetCount(27_053, false)).toBe("27,053");
    expect(facetCount(0, false)).toBe("0");
  });

  test("estimated counts read as approximate, rounded to two significant figures", () => {
    expect(facetCount(27_053, true)).toBe("about 27,000");
    expect(facetCount(1_249, true)).toBe("about 1,200");
    expect(facetCount(50, true)).toBe("about 50");
    // None in the sample is shown as none, not "about 0".
    expect(facetCount(0, true)).toBe("0");
  });
});
