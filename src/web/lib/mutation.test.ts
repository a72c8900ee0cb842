import { describe, expect, test, vi } from "vitest";
import { ApiError } from "#web/lib/api";
import { showToast } from "#web/lib/lazy-toast";
import { type ErrorToast, errorText, errorToastFor, type OnApiError, runMutation } from "#web/lib/mutation";

vi.mock("#web/lib/lazy-toast", () => ({ showToast: vi.fn() }));

const client = new ApiError(409, "ORDER_NOT_CANCELLABLE", "This order was paid; ask for a refund instead.");
const server = new ApiError(500, "INTERNAL_ERROR", 'relation "orders" does not exist');
const network = new ApiError(0, "NETWORK_ERROR", "We couldn't reach Stackbay.");

describe("the words an error toast gives", () => {
  test("unset: every error's own message, and the fallback for what is not an Error", () => {
    expect(errorText(client)).toBe(client.message);
    expect(errorText("boom", { fallback: "Something failed" })).toBe("Something failed");
  });

  test('"client": the server\'s words for 4xx answers only; a 5xx or a network failure gets the fallback', () => {
    expect(errorText(client, { show: "client", fallback: "Try again" })).toBe(client.message);
    expect(errorText(server, { show: "client", fallback: "Try again" })).toBe("Try again");
    expect(errorText(network, { show: "client", fallback: "Try again" })).toBe("Try again");
    expect(errorText(new Error("TypeError in a render"), { show: "client", fallback: "Try again" })).toBe(
      "Try again",
    );
  });

  test("\"api\": every API error's own message, the fallback for a fault of the page's code", () => {
    expect(errorText(server, { show: "api", fallback: "Try again" })).toBe(server.message);
    expect(errorText(network, { show: "api", fallback: "Try again" })).toBe(network.message);
    expect(errorText(new TypeError("x is undefined"), { show: "api", fallback: "Try again" })).toBe(
      "Try again",
    );
  });

  test("a list of codes: only those show their own message", () => {
    expect(errorText(client, { show: ["ORDER_NOT_CANCELLABLE"] })).toBe(client.message);
    expect(errorText(client, { show: ["PRODUCT_NOT_FOUND"] })).toBe(
      "An unexpected error occurred. Please try again.",
    );
  });
});

describe("branching a failure on its code", () => {
  const fallback: ErrorToast = {
    title: "Order failed",
    description: "There was an error processing your order.",
  };
  const unavailable = new ApiError(409, "PRODUCT_UNAVAILABLE", "A product is no longer available.", {
    productIds: ["p1"],
  });
  const seen: unknown[] = [];
  const onOrderError: OnApiError = (error) => {
    switch (error.code) {
      case "PRODUCT_UNAVAILABLE":
        seen.push(error.details);
        return { title: "Order failed", description: error.message };
      case "SHIPPING_ADDRESS_REQUIRED":
        return { title: "Shipping address needed" };
      case "PRICE_CHANGED":
        return null;
      default:
        return undefined;
    }
  };

  test("the screen's step for the error's code runs, with the typed error, and its toast is the one shown", () => {
    seen.length = 0;
    expect(errorToastFor(unavailable, fallback, onOrderError)).toEqual({
      title: "Order failed",
      description: "A product is no longer available.",
    });
    expect(seen).toEqual([{ productIds: ["p1"] }]);
  });

  test("a step may ask for no toast (the screen shows the problem itself)", () => {
    const changed = new ApiError(409, "PRICE_CHANGED", "Prices changed.", { changes: [] });
    expect(errorToastFor(changed, fallback, onOrderError)).toBeNull();
  });

  test("the message's words never choose the branch: same words, other code, the fallback", () => {
    const words = "A shipping address is needed for physical items";
    expect(errorToastFor(new ApiError(400, "VALIDATION_ERROR", words), fallback, onOrderError)).toBe(
      fallback,
    );
    expect(
      errorToastFor(new ApiError(400, "SHIPPING_ADDRESS_REQUIRED", words), fallback, onOrderError),
    ).toEqual({
      title: "Shipping address needed",
    });
  });

  test("a failure no step takes (other code, network, a bug in the page) gets the fallback", () => {
    seen.length = 0;
    expect(errorToastFor(server, fallback, onOrderError)).toBe(fallback);
    expect(errorToastFor(network, fallback, onOrderError)).toBe(fallback);
    expect(errorToastFor(new TypeError("x is undefined"), fallback, onOrderError)).toBe(fallback);
    expect(errorToastFor(unavailable, fallback)).toBe(fallback);
    expect(seen).toEqual([]);
  });
});

describe("a toast with a fixed id", () => {
  test("the success and the error toast carry it, so a repeated action replaces its toast", async () => {
    vi.mocked(showToast).mockClear();
    await runMutation(Promise.resolve(1), {
      success: { id: "order-1", title: "Cancelled" },
      error: { title: "x" },
    });
    await runMutation(Promise.reject(client), { error: { id: "order-1", title: "Could not cancel" } });
    expect(vi.mocked(showToast).mock.calls).toEqual([
      ["success", "Cancelled", { description: undefined, id: "order-1" }],
      ["error", "Could not cancel", { description: client.message, id: "order-1" }],
    ]);
  });
});
