import { describe, expect, test } from "vitest";
import { placeOrderSchema } from "#domain/checkout";
import { priceChanges } from "#domain/price-changes";

const product = (id: string, price: string, name = `Product ${id}`) => ({ id, name, price });
const line = (productId: string, price: number) => ({ productId, price });

describe("priceChanges", () => {
  test("the same price is no change, whatever its written form", () => {
    // numeric(14,4) reads back padded: a string comparison would call every one of these a change.
    expect(
      priceChanges(
        [line("a", 19.99), line("b", 0.004), line("c", 49), line("d", 0)],
        [product("a", "19.9900"), product("b", "0.0040"), product("c", "49.00"), product("d", "0.0000")],
      ),
    ).toEqual([]);
  });

  test("lists each changed product with the shown and the current price", () => {
    expect(
      priceChanges(
        [line("a", 12), line("b", 8.5), line("c", 0.004)],
        [product("a", "14.2500", "Kestrel"), product("b", "8.5000"), product("c", "0.0041", "Geo API")],
      ),
    ).toEqual([
      { productId: "a", name: "Kestrel", oldPrice: 12, newPrice: 14.25 },
      { productId: "c", name: "Geo API", oldPrice: 0.004, newPrice: 0.0041 },
    ]);
  });

  test("a lower price claimed by the client is a change too", () => {
    expect(priceChanges([line("a", 0.01)], [product("a", "19.9900")])).toEqual([
      { productId: "a", name: "Product a", oldPrice: 0.01, newPrice: 19.99 },
    ]);
  });

  test.each([
    // Compared to the cent (toFixed(2), or a 0.005 tolerance) these look equal; they are not.
    [0.004, "0.0045"],
    [0.004, "0.0049"],
    [0, "0.0001"],
    [9999999.9999, "9999999.9998"],
  ])("tells %s from %s at the fourth decimal", (shown, current) => {
    expect(priceChanges([line("a", shown)], [product("a", current)])).toHaveLength(1);
  });

  test("sums that float arithmetic gets wrong still compare as the same price", () => {
    // 0.1 + 0.2 === 0.3 is false in floating point; in 1/10,000 units both are 3,000.
    expect(0.1 + 0.2 === Number("0.3")).toBe(false);
    expect(priceChanges([line("a", 0.1 + 0.2)], [product("a", "0.3000")])).toEqual([]);
    expect(1.1 * 3 === 3.3).toBe(false);
    expect(priceChanges([line("a", 1.1 * 3)], [product("a", "3.3")])).toEqual([]);
  });

  test("a product on two lines is listed once; a missing product is left to the availability check", () => {
    expect(priceChanges([line("a", 5), line("a", 5), line("gone", 1)], [product("a", "6.0000")])).toEqual([
      { productId: "a", name: "Product a", oldPrice: 5, newPrice: 6 },
    ]);
  });
});

describe("the shown price in the order body", () => {
  const body = (price: unknown) => ({
    fullName: "Bianca Buyer",
    email: "buyer@stackbay.test",
    address: "12 Harbour Street",
    city: "Dubai",
    country: "United Arab Emirates",
    paymentMethod: "paypal",
    items: [{ productId: "0b7e3c1e-4a5b-4c1d-9e2f-1a2b3c4d5e6f", quantity: 1, price }],
    idempotencyKey: "6f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f",
  });
  const problem = (price: unknown) =>
    placeOrderSchema.safeParse(body(price)).error?.issues.map((i) => i.message) ?? [];

  test.each([0, 0.004, 0.0075, 19.99, 12850, 999999.9999, 1000000])("accepts %s", (price) => {
    expect(problem(price)).toEqual([]);
  });

  test.each([
    [0.00001, "Price can have at most 4 decimals"],
    [0.1 + 0.2, "Price can have at most 4 decimals"],
    [-1, "Price must be 0 or more"],
    [Number.NaN, "Price must be a number"],
    ["19.99", "Price must be a number"],
    [undefined, "Price must be a number"],
  ])("refuses %s with '%s'", (price, message) => {
    expect(problem(price)).toContain(message);
  });
});
