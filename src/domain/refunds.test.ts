import { describe, expect, test } from "vitest";
import { DAY_MS } from "#domain/dates";
import {
  itemRefundCents,
  nextPayoutState,
  nextRefundStatus,
  openRefundStatuses,
  payoutBuyerText,
  type RefundStatus,
  refundableUntil,
  refundStatuses,
  sellerDeadline,
} from "#domain/refunds";

const requestedAt = new Date("2026-11-20T15:00:00Z"); // a Friday
const sellerDueAt = sellerDeadline(requestedAt);
const before = new Date("2026-11-24T12:00:00Z");
const after = new Date("2026-11-26T12:00:00Z");
const at = (status: RefundStatus) => ({ status, sellerDueAt });

describe("refund requests", () => {
  test("the seller has until 3 business days later (Friday → Wednesday)", () => {
    expect(sellerDueAt.toISOString()).toBe("2026-11-25T15:00:00.000Z");
  });

  test("the seller approves or rejects a request, only while it waits for them", () => {
    expect(nextRefundStatus(at("requested"), "seller", "approve", before)).toEqual({ status: "approved" });
    expect(nextRefundStatus(at("requested"), "seller", "reject", before)).toEqual({
      status: "seller_rejected",
    });
    expect(nextRefundStatus(at("escalated"), "seller", "approve", before)).toHaveProperty("refused");
    expect(nextRefundStatus(at("requested"), "seller", "escalate", before)).toHaveProperty("refused");
  });

  test("the buyer escalates after a rejection, or once the seller's deadline passed unanswered", () => {
    expect(nextRefundStatus(at("seller_rejected"), "buyer", "escalate", before)).toEqual({
      status: "escalated",
    });
    expect(nextRefundStatus(at("requested"), "buyer", "escalate", before)).toHaveProperty("refused");
    expect(nextRefundStatus(at("requested"), "buyer", "escalate", after)).toEqual({ status: "escalated" });
    expect(nextRefundStatus(at("requested"), "buyer", "approve", after)).toHaveProperty("refused");
    expect(nextRefundStatus(at("approved"), "buyer", "escalate", after)).toHaveProperty("refused");
  });

  test("the platform decides escalated requests only, and its decision is final", () => {
    expect(nextRefundStatus(at("escalated"), "admin", "approve", after)).toEqual({ status: "approved" });
    expect(nextRefundStatus(at("escalated"), "admin", "reject", after)).toEqual({ status: "rejected" });
    expect(nextRefundStatus(at("requested"), "admin", "approve", after)).toHaveProperty("refused");
    expect(nextRefundStatus(at("rejected"), "admin", "approve", after)).toHaveProperty("refused");
  });
});

describe("refund window", () => {
  test("ends the configured number of whole days after the order", () => {
    const orderedAt = new Date("2026-11-20T15:00:00Z");
    expect(refundableUntil(orderedAt, 14).toISOString()).toBe("2026-12-04T15:00:00.000Z");
    expect(refundableUntil(orderedAt, 3).getTime() - orderedAt.getTime()).toBe(3 * DAY_MS);
    expect(refundableUntil(orderedAt, 0)).toEqual(orderedAt);
  });
});

describe("open refund statuses", () => {
  test("are the statuses still waiting for a decision: not the two final ones", () => {
    expect([...openRefundStatuses].sort()).toEqual(
      refundStatuses.filter((s) => s !== "approved" && s !== "rejected").sort(),
    );
  });
});

describe("refund payouts", () => {
  test("each item pays back its line with its share of the tax; the last takes what is left", () => {
    // $10.00 + $20.01 = $30.01, tax 5% = $1.5005, charged $31.5105 → 3151 cents.
    const order = { subtotal: "30.0100", total: "31.5105", chargedCents: 3151 };
    const first = itemRefundCents({ ...order, line: "10.0000", refundedCents: 0, last: false });
    expect(first).toBe(1050);
    const second = itemRefundCents({ ...order, line: "20.0100", refundedCents: first, last: true });
    expect(first + second).toBe(3151);
    // Never more than what is left of the charge, and nothing for a free order.
    expect(itemRefundCents({ ...order, line: "30.0100", refundedCents: 3000, last: false })).toBe(151);
    expect(
      itemRefundCents({
        subtotal: "0",
        total: "0",
        chargedCents: 0,
        line: "0",
        refundedCents: 0,
        last: false,
      }),
    ).toBe(0);
  });

  test("a succeeded payout stays succeeded; pending never undoes an answer; transfers wait for the operator", () => {
    expect(nextPayoutState("pending", { state: "succeeded" })).toBe("succeeded");
    expect(nextPayoutState("pending", { state: "failed", reason: "no" })).toBe("failed");
    expect(nextPayoutState("pending", { state: "pending" })).toBe("pending");
    expect(nextPayoutState("succeeded", { state: "failed", reason: "late" })).toBe("succeeded");
    expect(nextPayoutState("succeeded", { state: "pending" })).toBe("succeeded");
    expect(nextPayoutState("failed", { state: "pending" })).toBe("failed");
    expect(nextPayoutState("failed", { state: "succeeded" })).toBe("succeeded");
    expect(nextPayoutState("awaiting_transfer", { state: "succeeded" })).toBe("awaiting_transfer");
  });

  test("the buyer reads the amount, where it went and the day, or that it is being processed", () => {
    const base = { amountCents: 123456, destination: "card" as const, completedAt: "2026-11-20T10:00:00Z" };
    expect(payoutBuyerText({ ...base, state: "succeeded" })).toBe(
      "Refund of $1,234.56 sent to your card on Nov 20, 2026",
    );
    expect(payoutBuyerText({ ...base, state: "succeeded", destination: "paypal", amountCents: 5 })).toBe(
      "Refund of $0.05 sent to your PayPal account on Nov 20, 2026",
    );
    expect(payoutBuyerText({ ...base, state: "failed" })).toBe("Being processed");
    expect(payoutBuyerText({ ...base, state: "awaiting_transfer", completedAt: null })).toBe(
      "Being processed",
    );
  });
});
