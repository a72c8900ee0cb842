import { describe, expect, test } from "vitest";
import { jurisdictionLabel, periodBounds, presetPeriod, unitsToUsd } from "#domain/finance-period";

describe("finance periods", () => {
  test("a period runs from its first day's midnight UTC to the midnight after its last day", () => {
    expect(periodBounds({ from: "2026-02-01", to: "2026-02-28" })).toEqual({
      start: new Date("2026-02-01T00:00:00.000Z"),
      end: new Date("2026-03-01T00:00:00.000Z"),
    });
  });

  test("presets are whole calendar months and years, across a year's turn", () => {
    const today = new Date("2026-01-15T23:30:00Z");
    expect(presetPeriod("this-month", today)).toEqual({ from: "2026-01-01", to: "2026-01-31" });
    expect(presetPeriod("last-month", today)).toEqual({ from: "2025-12-01", to: "2025-12-31" });
    expect(presetPeriod("this-year", today)).toEqual({ from: "2026-01-01", to: "2026-12-31" });
    expect(presetPeriod("last-month", new Date("2024-03-31T00:00:00Z"))).toEqual({
      from: "2024-02-01",
      to: "2024-02-29",
    });
  });

  test("units become USD only at the edge; jurisdictions read as a country's tax", () => {
    expect(unitsToUsd(123_456)).toBe(12.3456);
    expect(jurisdictionLabel("AE")).toBe("UAE VAT");
    expect(jurisdictionLabel("in")).toBe("India GST");
    expect(jurisdictionLabel("ZZZ")).toBe("ZZZ tax");
  });
});
