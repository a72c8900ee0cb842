import { describe, expect, test } from "vitest";
import { ApiError } from "#web/lib/api";
import { errorText } from "#web/lib/mutation";

const client = new ApiError(409, "ORDER_NOT_CANCELLABLE", "This order was paid; ask for a refund instead.");
const server = new ApiError(500, "INTERNAL", 'relation "orders" does not exist');
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

  test("a list of codes: only those show their own message", () => {
    expect(errorText(client, { show: ["ORDER_NOT_CANCELLABLE"] })).toBe(client.message);
    expect(errorText(client, { show: ["PRODUCT_NOT_FOUND"] })).toBe(
      "An unexpected error occurred. Please try again.",
    );
  });
});
