import { describe, expect, test } from "vitest";
import { paymentMethods } from "#domain/checkout";
import { paymentDeclines, paymentProblem } from "#domain/payments";

describe("paymentProblem", () => {
  const failed = { attempt: 1, provider: "test" as const, state: "failed" as const, reason: null };

  test("each method's decline names what declined it", () => {
    expect(paymentProblem({ method: "stripe", payment: failed })).toBe("Your card was declined.");
    expect(paymentProblem({ method: "paypal", payment: failed })).toBe("PayPal declined the payment.");
    expect(paymentProblem({ method: "apple-pay", payment: failed })).toBe("Apple Pay declined the payment.");
    expect(paymentProblem({ method: "bank-transfer", payment: failed })).toMatch(/bank transfer/);
  });

  test("only a card's decline speaks of a card", () => {
    for (const { value } of paymentMethods) {
      expect(/card/i.test(paymentDeclines[value])).toBe(value === "stripe");
    }
  });

  test("the provider's reason follows; cancelled and expired attempts are not declines", () => {
    expect(paymentProblem({ method: "paypal", payment: { ...failed, reason: "INSTRUMENT_DECLINED" } })).toBe(
      "PayPal declined the payment. Reason given: INSTRUMENT_DECLINED",
    );
    expect(paymentProblem({ method: "paypal", payment: { ...failed, state: "cancelled" } })).toBe(
      "You cancelled the payment.",
    );
    expect(paymentProblem(null)).toBe("The payment did not go through.");
  });
});
