import { describe, expect, test } from "vitest";
import { alignSpecifications, compareQuery, valuesDiffer } from "#domain/compare";
import { splitIds } from "#domain/compare-ids";

const a = "6f1c0b1e-1b2a-4c3d-8e4f-000000000001";
const b = "6f1c0b1e-1b2a-4c3d-8e4f-000000000002";

describe("alignSpecifications", () => {
  test("keeps every key once, in first-seen order, with a value or null per product", () => {
    expect(
      alignSpecifications([
        [
          { key: "RAM", value: "16 GB" },
          { key: "Ports", value: "4" },
        ],
        [
          { key: "ports ", value: "8" },
          { key: "Weight", value: "1 kg" },
        ],
        [],
      ]),
    ).toEqual([
      { key: "RAM", values: ["16 GB", null, null] },
      { key: "Ports", values: ["4", "8", null] },
      { key: "Weight", values: [null, "1 kg", null] },
    ]);
  });

  test("a key listed twice by one product keeps its first value; blank keys are dropped", () => {
    expect(
      alignSpecifications([
        [
          { key: "Colour", value: "Black" },
          { key: "colour", value: "White" },
          { key: "  ", value: "x" },
        ],
      ]),
    ).toEqual([{ key: "Colour", values: ["Black"] }]);
  });
});

describe("valuesDiffer", () => {
  test("ignores case and spacing, counts a missing value as different", () => {
    expect(valuesDiffer(["8 GB", "8  gb"])).toBe(false);
    expect(valuesDiffer(["8 GB", "16 GB"])).toBe(true);
    expect(valuesDiffer(["8 GB", null])).toBe(true);
    expect(valuesDiffer([null, null])).toBe(false);
    expect(valuesDiffer([4.5, 4.5])).toBe(false);
  });
});

describe("compareQuery", () => {
  test("splits, trims, lower-cases and drops repeats", () => {
    expect(splitIds(` ${a.toUpperCase()},,${b},${a} `)).toEqual([a, b]);
    expect(compareQuery.parse({ ids: `${a},${b}` }).ids).toEqual([a, b]);
  });

  test.each([
    [`${a}`, "Pick at least two products to compare"],
    [`${a},${a}`, "Pick at least two products to compare"],
    [[a, b, a.replace("1", "3"), a.replace("1", "4"), a.replace("1", "5")].join(","), "at most 4"],
    [`${a},x`, "Each product id must be a valid id"],
  ])("refuses %s", (ids, message) => {
    const result = compareQuery.safeParse({ ids });
    expect(result.success).toBe(false);
    expect(JSON.stringify(result.error?.issues)).toContain(message);
  });
});
