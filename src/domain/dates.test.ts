import { describe, expect, test } from "vitest";
import { formatDate, formatDateTime, formatRelativeTime } from "#domain/dates";

describe("dates", () => {
  test("formatDate reads 'MMM dd, yyyy' in UTC", () => {
    expect(formatDate("2026-11-02T23:30:00.000Z")).toBe("Nov 02, 2026");
    expect(formatDate(new Date("2025-06-01T00:00:00Z"))).toBe("Jun 01, 2025");
  });

  test("formatDateTime adds the time and says UTC", () => {
    expect(formatDateTime("2026-11-22T09:05:00.000Z")).toBe("Nov 22, 2026, 09:05 AM UTC");
  });

  test("formatRelativeTime names the largest whole unit", () => {
    const now = new Date("2026-05-10T12:00:00.000Z");
    const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000).toISOString();
    expect(formatRelativeTime(ago(20), now)).toBe("just now");
    expect(formatRelativeTime(ago(60), now)).toBe("1 minute ago");
    expect(formatRelativeTime(ago(3 * 60 + 50), now)).toBe("3 minutes ago");
    expect(formatRelativeTime(ago(2 * 3600), now)).toBe("2 hours ago");
    expect(formatRelativeTime(ago(26 * 3600), now)).toBe("yesterday");
    expect(formatRelativeTime(ago(3 * 86_400), now)).toBe("3 days ago");
    expect(formatRelativeTime(ago(8 * 86_400), now)).toBe("last week");
    expect(formatRelativeTime(ago(65 * 86_400), now)).toBe("2 months ago");
    expect(formatRelativeTime(ago(800 * 86_400), now)).toBe("2 years ago");
    expect(formatRelativeTime(new Date(now.getTime() + 5 * 60_000), now)).toBe("in 5 minutes");
  });
});
