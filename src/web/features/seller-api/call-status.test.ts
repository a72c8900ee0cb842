import { describe, expect, test } from "vitest";
import { callStatusText, callSucceeded } from "#web/features/seller-api/call-status";

describe("the access log's statuses", () => {
  test("2xx went through; 4xx and 5xx did not", () => {
    expect([200, 201, 204, 299].map(callSucceeded)).toEqual([true, true, true, true]);
    expect([199, 301, 401, 403, 429, 500].map(callSucceeded)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  test("each status reads as its number and what it means", () => {
    expect(callStatusText(200)).toBe("200 OK");
    expect(callStatusText(401)).toBe("401 Unauthorized");
    expect(callStatusText(403)).toBe("403 Forbidden");
    expect(callStatusText(429)).toBe("429 Too many requests");
    expect(callStatusText(206)).toBe("206 OK");
    expect(callStatusText(418)).toBe("418 Refused");
    expect(callStatusText(502)).toBe("502 Server error");
    expect(callStatusText(302)).toBe("302");
  });
});
