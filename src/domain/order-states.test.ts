import { describe, expect, test } from "vitest";
import { paymentStatuses } from "#domain/checkout";
import {
  adminChoices,
  canTransition,
  fixedStatusReason,
  isPaidStatus,
  type OrderActor,
  sourcesOf,
  transitionRefusal,
} from "#domain/order-states";

const actors: OrderActor[] = ["provider", "buyer", "admin", "refund", "transfer", "nothing_due"];

/** The allowed moves, written out independently of the table they check. */
const allowed = new Set([
  "pending>processing:admin",
  "pending>mock_confirmed:provider",
  "pending>mock_confirmed:admin",
  "pending>mock_confirmed:nothing_due",
  "pending>failed:provider",
  "pending>failed:admin",
  "pending>failed:buyer",
  "processing>mock_confirmed:admin",
  "processing>mock_confirmed:transfer",
  "processing>failed:admin",
  "processing>failed:transfer",
  "processing>failed:buyer",
  "failed>mock_confirmed:provider",
  "failed>mock_confirmed:transfer",
  "failed>pending:buyer",
  "failed>processing:buyer",
  "mock_confirmed>partially_refunded:refund",
  "mock_confirmed>refunded:refund",
  "partially_refunded>refunded:refund",
]);

const every = paymentStatuses.flatMap((from) =>
  paymentStatuses.flatMap((to) => actors.map((actor) => [from, to, actor] as const)),
);

describe("order state machine", () => {
  test.each(every.filter(([from, to]) => from !== to))("%s → %s by %s", (from, to, actor) => {
    const expected = allowed.has(`${from}>${to}:${actor}`);
    expect(canTransition(from, to, actor)).toBe(expected);
    if (expected) expect(transitionRefusal(from, to, actor)).toBeNull();
    else expect(transitionRefusal(from, to, actor)).toMatch(/ order cannot be set to /);
  });

  test("staying in the same status is not a move and is never refused", () => {
    for (const status of paymentStatuses) {
      for (const actor of actors) expect(transitionRefusal(status, status, actor)).toBeNull();
    }
  });

  test("refusals name both statuses as the spec shows them", () => {
    expect(transitionRefusal("refunded", "failed", "admin")).toBe(
      "A refunded order cannot be set to Failed.",
    );
    expect(transitionRefusal("mock_confirmed", "refunded", "admin")).toBe(
      "A confirmed order cannot be set to Refunded by hand; only an approved refund does that.",
    );
    expect(transitionRefusal("failed", "mock_confirmed", "admin")).toBe(
      "A failed order cannot be set to Confirmed by hand; only a payment confirmed by the payment provider does that.",
    );
    expect(transitionRefusal("mock_confirmed", "pending", "admin")).toBe(
      "A confirmed order cannot be set to Pending.",
    );
  });

  test("the guard of a conditional update lists every status the actor may leave from", () => {
    expect(sourcesOf("mock_confirmed", "provider")).toEqual(["pending", "failed"]);
    expect(sourcesOf("pending", "buyer")).toEqual(["failed"]);
    expect(sourcesOf("mock_confirmed", "admin")).toEqual(["pending", "processing"]);
    expect(sourcesOf("failed", "provider")).toEqual(["pending"]);
    expect(sourcesOf("refunded", "refund")).toEqual(["mock_confirmed", "partially_refunded"]);
  });

  test("bank transfers confirm an order awaiting funds, or one that expired before the money arrived", () => {
    expect(sourcesOf("mock_confirmed", "transfer")).toEqual(["processing", "failed"]);
    expect(sourcesOf("failed", "transfer")).toEqual(["processing"]);
    expect(sourcesOf("processing", "buyer")).toEqual(["failed"]);
    expect(canTransition("pending", "mock_confirmed", "transfer")).toBe(false);
  });

  test("an admin is offered the current status and the allowed moves only", () => {
    expect(adminChoices("pending")).toEqual(["pending", "processing", "failed", "mock_confirmed"]);
    expect(adminChoices("processing")).toEqual(["processing", "failed", "mock_confirmed"]);
    for (const status of ["failed", "mock_confirmed", "partially_refunded", "refunded"] as const) {
      expect(adminChoices(status)).toEqual([]);
    }
  });

  test("the paid flag follows the status", () => {
    expect(paymentStatuses.filter(isPaidStatus)).toEqual([
      "mock_confirmed",
      "partially_refunded",
      "refunded",
    ]);
  });
});

describe("why an admin cannot change an order", () => {
  test("said of the order as it is: a paid order never refunded is not 'changed by the refund process'", () => {
    expect(fixedStatusReason("mock_confirmed", null)).toBe("Paid; changes only through a refund");
    expect(fixedStatusReason("partially_refunded", null)).toBe(
      "Partly refunded; changes only through a refund",
    );
    expect(fixedStatusReason("refunded", null)).toBe("Final");
    expect(fixedStatusReason("failed", null)).toBe("Confirmed when the buyer pays again");
    expect(fixedStatusReason("failed", "2026-11-27T10:00:00.000Z")).toBe("Cancelled by the buyer");
  });
});
