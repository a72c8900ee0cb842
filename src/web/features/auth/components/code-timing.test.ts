import { describe, expect, test } from "vitest";
import { codeErrors, cooldownError } from "#web/features/auth/components/code-timing";
import { ApiError } from "#web/lib/api";
import { errorToastFor } from "#web/lib/mutation";

const WRONG_CODE = "The verification code is incorrect or has expired.";
const fallback = { title: "Reset Failed", show: "api" } as const;

/** A stand-in for react-hook-form's field methods that records what the handlers did to the code field. */
function recordingForm() {
  const steps: unknown[] = [];
  return {
    steps,
    setError: (name: "code", error: { message: string }, options?: { shouldFocus?: boolean }) =>
      steps.push(["setError", name, error.message, options?.shouldFocus ?? false]),
    setValue: (name: "code", value: string) => steps.push(["setValue", name, value]),
  };
}

describe("an e-mailed code's errors", () => {
  test("a wrong or expired code marks the field, focused, with the spec's words", () => {
    for (const code of ["INVALID_CODE", "CODE_EXPIRED"] as const) {
      const form = recordingForm();
      const toast = errorToastFor(new ApiError(400, code, "from the server"), fallback, codeErrors(form));
      expect(toast).toEqual({ title: "Invalid Code", description: WRONG_CODE });
      expect(form.steps).toEqual([["setError", "code", WRONG_CODE, true]]);
    }
  });

  test("too many tries empties the field and says the server's words", () => {
    const form = recordingForm();
    const error = new ApiError(
      429,
      "TOO_MANY_ATTEMPTS",
      "Too many incorrect attempts. Please request a new code.",
    );
    expect(errorToastFor(error, fallback, codeErrors(form))).toEqual({
      title: "Invalid Code",
      description: error.message,
    });
    expect(form.steps).toEqual([
      ["setValue", "code", ""],
      ["setError", "code", error.message, false],
    ]);
  });

  test("any other failure leaves the field alone and gets the screen's toast", () => {
    const form = recordingForm();
    expect(errorToastFor(new ApiError(502, "MAIL_FAILED", "x"), fallback, codeErrors(form))).toBe(fallback);
    expect(form.steps).toEqual([]);
  });
});

describe("a new code asked for too soon", () => {
  test("waits as long as the server says, and says so", () => {
    let deadline = 0;
    const error = new ApiError(429, "CODE_COOLDOWN", "Please wait.", { retryAfterSeconds: 41.2 });
    const before = Date.now();
    expect(cooldownError(error, (at) => (deadline = at))).toEqual({
      title: "Please Wait",
      description: "You can resend the code in 42 seconds.",
    });
    expect(deadline - before).toBeGreaterThanOrEqual(42_000);
    expect(deadline - Date.now()).toBeLessThanOrEqual(42_000);
  });
});
