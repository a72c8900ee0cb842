import { describe, expect, test } from "vitest";
import { productListQuery } from "#domain/catalog-schemas";
import { decodeCursor, encodeCursor, type ProductCursor } from "#domain/product-cursor";

const id = "0b6e2a4c-3f1d-4c8e-9a7b-5d2f1e0c9b8a";
const raw = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

describe("product cursors", () => {
  test.each<ProductCursor>([
    { sort: "default", key: "2026-11-23T10:15:30.123456Z", id },
    // Featured: among the chosen products the key is the place in the admins' order.
    { sort: "default", key: "0", id },
    { sort: "relevance", key: "7", id },
    { sort: "newest", key: "1999-01-01T00:00:00.000000Z", id },
    { sort: "price-low", key: "0.0040", id },
    { sort: "price-high", key: "123456789012.9999", id },
    { sort: "rating", key: "4.8123", id },
    { sort: "rating", key: null, id },
  ])("round-trips %o as URL-safe text", (cursor) => {
    const text = encodeCursor(cursor);
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor.sort, text)).toEqual(cursor);
  });

  test.each([
    ["empty", ""],
    ["not base64", "!!!"],
    ["base64 of no JSON", Buffer.from("hello").toString("base64url")],
    ["an object", raw({ sort: "default", id })],
    ["another version", raw([2, "default", "2026-11-23T10:15:30.123456Z", id])],
    ["another sort", raw([1, "price-low", "2026-11-23T10:15:30.123456Z", id])],
    ["an id that is no uuid", raw([1, "default", "2026-11-23T10:15:30.123456Z", "1 or 1=1"])],
    ["a timestamp without microseconds", raw([1, "default", "2026-11-23T10:15:30Z", id])],
    ["a null key where the sort has none", raw([1, "default", null, id])],
    ["too many fields", raw([1, "default", "2026-11-23T10:15:30.123456Z", id, 5])],
    ["a numeric key", raw([1, "default", 17, id])],
    ["padding and slashes", `${raw([1, "default", "x", id])}==/`],
  ])("rejects %s", (_what, text) => {
    expect(decodeCursor("default", text)).toBeNull();
  });

  test("a Featured cursor's place is a whole number of digits only", () => {
    for (const key of ["-1", "1.5", "1e3", " 3", "1234567890", "3\n"]) {
      expect(decodeCursor("default", raw([1, "default", key, id])), key).toBeNull();
    }
    expect(decodeCursor("newest", raw([1, "newest", "3", id]))).toBeNull();
    expect(decodeCursor("default", raw([1, "default", "3", id]))).toEqual({ sort: "default", key: "3", id });
  });

  test("a price cursor rejects exponents and negative numbers", () => {
    expect(decodeCursor("price-low", raw([1, "price-low", "1e309", id]))).toBeNull();
    expect(decodeCursor("price-low", raw([1, "price-low", "-1", id]))).toBeNull();
  });

  test("the listing schema turns a bad cursor into a message on `after`, and keeps a good one", () => {
    const bad = productListQuery.safeParse({ sort: "rating", after: "garbled" });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]).toMatchObject({
      path: ["after"],
      message: "This page link is not valid; start again from page 1",
    });
    const after = encodeCursor({ sort: "rating", key: null, id });
    expect(productListQuery.parse({ sort: "rating", after }).after).toBe(after);
  });
});
