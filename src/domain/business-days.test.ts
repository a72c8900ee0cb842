import { describe, expect, test } from "vitest";
import { addBusinessDays, isBusinessDay } from "#domain/business-days";

const at = (iso: string) => new Date(iso);

describe("addBusinessDays", () => {
  test.each([
    ["Monday → Thursday", "2026-11-16T10:00:00Z", "2026-11-19T10:00:00Z"],
    ["Wednesday → next Monday, skipping the weekend", "2026-11-18T10:00:00Z", "2026-11-23T10:00:00Z"],
    ["Friday afternoon → next Wednesday afternoon", "2026-11-20T15:30:00Z", "2026-11-25T15:30:00Z"],
    ["Saturday → Wednesday (counting starts Monday)", "2026-11-21T09:00:00Z", "2026-11-25T09:00:00Z"],
    ["Sunday → Wednesday", "2026-11-22T23:59:00Z", "2026-11-25T23:59:00Z"],
  ])("3 business days: %s", (_name, from, due) => {
    expect(addBusinessDays(at(from), 3).toISOString()).toBe(at(due).toISOString());
  });

  test("zero days is the same moment; across a month and year end", () => {
    expect(addBusinessDays(at("2026-11-21T09:00:00Z"), 0).toISOString()).toBe("2026-11-21T09:00:00.000Z");
    expect(addBusinessDays(at("2026-12-30T12:00:00Z"), 3).toISOString()).toBe("2027-01-04T12:00:00.000Z");
  });

  test("listed holidays are skipped like weekends", () => {
    const holidays = new Set(["2026-12-02", "2026-12-03"]);
    expect(addBusinessDays(at("2026-12-01T08:00:00Z"), 3, holidays).toISOString()).toBe(
      "2026-12-08T08:00:00.000Z",
    );
    expect(isBusinessDay(at("2026-12-02T08:00:00Z"), holidays)).toBe(false);
  });

  test("refuses negative or fractional counts", () => {
    expect(() => addBusinessDays(new Date(), -1)).toThrow(RangeError);
    expect(() => addBusinessDays(new Date(), 1.5)).toThrow(RangeError);
  });
});
