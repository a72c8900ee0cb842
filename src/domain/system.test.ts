import { describe, expect, test } from "vitest";
import {
  formatUptime,
  fxCurrencyCodes,
  fxRateParams,
  fxRateUpdateSchema,
  queueTitle,
  scheduleText,
} from "#domain/system";

const messages = (input: unknown) => {
  const result = fxRateUpdateSchema.safeParse(input);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
};

describe("fxRateUpdateSchema", () => {
  test("accepts rates up to 1,000,000 with 8 decimals and buffers from 0 to 0.5 with 4", () => {
    for (const input of [
      { rateToUsd: 0.00000001, fxBuffer: 0 },
      { rateToUsd: 1_000_000, fxBuffer: 0.5 },
      { rateToUsd: 83.12345678, fxBuffer: 0.0125 },
      { rateToUsd: 0.92, fxBuffer: 0.02 },
    ]) {
      expect(fxRateUpdateSchema.parse(input)).toEqual(input);
    }
  });

  test("refuses out-of-range or over-precise values with the screen's messages", () => {
    expect(messages({ rateToUsd: 0, fxBuffer: 0 })).toEqual(["Rate to USD must be greater than 0"]);
    expect(messages({ rateToUsd: 1_000_000.5, fxBuffer: 0 })).toEqual([
      "Rate to USD must be at most 1,000,000",
    ]);
    expect(messages({ rateToUsd: 0.000000001, fxBuffer: 0 })).toEqual([
      "Rate to USD can have at most 8 decimal places",
    ]);
    expect(messages({ rateToUsd: Number.NaN, fxBuffer: 0 })).toEqual(["Rate to USD must be a number"]);
    expect(messages({ rateToUsd: 1, fxBuffer: 0.5001 })).toEqual([
      "Buffer must be between 0 and 0.5 (0–50 %)",
    ]);
    expect(messages({ rateToUsd: 1, fxBuffer: -0.0001 })).toEqual([
      "Buffer must be between 0 and 0.5 (0–50 %)",
    ]);
    expect(messages({ rateToUsd: 1, fxBuffer: 0.00001 })).toEqual([
      "Buffer can have at most 4 decimal places",
    ]);
    expect(messages({ rateToUsd: "1", fxBuffer: null })).toEqual([
      "Rate to USD must be a number",
      "Buffer must be a number",
    ]);
  });
});

describe("fxRateParams", () => {
  test("takes the supported non-USD currencies, in any case", () => {
    expect(fxCurrencyCodes).toEqual(["AED", "EUR", "GBP", "INR"]);
    expect(fxRateParams.parse({ code: "eur" })).toEqual({ code: "EUR" });
  });

  test("refuses USD, whose rate is fixed, and currencies Stackbay does not support", () => {
    const issue = (code: string) => fxRateParams.safeParse({ code }).error?.issues[0]?.message;
    expect(issue("USD")).toBe("USD is the base currency: its rate is fixed at 1 and cannot be changed.");
    expect(issue("usd")).toBe("USD is the base currency: its rate is fixed at 1 and cannot be changed.");
    expect(issue("JPY")).toBe("Unknown currency. Choose one of AED, EUR, GBP, INR.");
  });
});

describe("formatUptime", () => {
  test("shows the two largest units", () => {
    expect(formatUptime(42)).toBe("42 s");
    expect(formatUptime(125)).toBe("2 min");
    expect(formatUptime(3 * 3600 + 12 * 60 + 5)).toBe("3 h 12 min");
    expect(formatUptime(2 * 86_400 + 4 * 3600 + 59)).toBe("2 d 4 h");
  });
});

describe("queue names and schedules for people", () => {
  test("read as words", () => {
    expect(queueTitle("payments-reconcile")).toBe("Payments reconcile");
    expect(scheduleText(null)).toBe("Runs when work is queued");
    expect(scheduleText("* * * * *")).toBe("Every minute");
    expect(scheduleText("*/5 * * * *")).toBe("Every 5 minutes");
    expect(scheduleText("0 3 * * *")).toBe("Schedule 0 3 * * * (UTC)");
  });
});
