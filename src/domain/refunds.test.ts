import { describe, expect, test } from "vitest";
import { DAY_MS } from "#domain/dates";
import {
  nextRefundStatus,
  openRefundStatuses,
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
