import { describe, expect, test } from "vitest";
import { formatDate, formatDateTime } from "#domain/dates";

describe("dates", () => {
  test("formatDate reads 'MMM dd, yyyy' in UTC", () => {
    expect(formatDate("2026-11-02T23:30:00.000Z")).toBe("Nov 02, 2026");
    expect(formatDate(new Date("2025-06-01T00:00:00Z"))).toBe("Jun 01, 2025");
  });

  test("formatDateTime adds the time and says UTC", () => {
    expect(formatDateTime("2026-11-22T09:05:00.000Z")).toBe("Nov 22, 2026, 09:05 AM UTC");
  });
});
