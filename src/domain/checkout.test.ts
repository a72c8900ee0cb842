import { describe, expect, test } from "vitest";
import { billingFormSchema, MAX_ORDER_LINES, MAX_QUANTITY, placeOrderSchema } from "#domain/checkout";
import { computeTotals, MAX_TAX_RATE, MONEY_COLUMN_MAX, rateUnits, toUnits } from "#domain/money";
import { MAX_PRICE, productInputSchema } from "#domain/product-admin";

describe("the largest order the schemas accept fits the money columns", () => {
  test("max price × max quantity × max lines × (1 + the highest tax rate) < numeric(14,4)'s largest value", () => {
    // Exact, in whole ten-thousandths of a dollar, as the columns store them (tax rounds half up).
    const subtotal = BigInt(toUnits(MAX_PRICE)) * BigInt(MAX_QUANTITY) * BigInt(MAX_ORDER_LINES);
    const taxBasisPoints = BigInt(rateUnits(MAX_TAX_RATE));
    const tax = (subtotal * taxBasisPoints + 5_000n) / 10_000n;
    const columnMax = BigInt(MONEY_COLUMN_MAX.replace(".", ""));
    expect(subtotal + tax < columnMax).toBe(true);
    // And the totals are computed exactly, within JavaScript's safe integers.
    expect(subtotal + tax <= BigInt(Number.MAX_SAFE_INTEGER)).toBe(true);
  });

  test("computeTotals of that order is below the column maximum", () => {
    const lines = Array.from({ length: MAX_ORDER_LINES }, () => ({
      price: MAX_PRICE.toFixed(4),
      quantity: MAX_QUANTITY,
    }));
    const { subtotal, tax, total } = computeTotals(lines, MAX_TAX_RATE);
    for (const amount of [subtotal, tax, total]) {
      expect(Number(amount)).toBeLessThan(Number(MONEY_COLUMN_MAX));
    }
    expect(total).toBe("7425000000.0000");
  });

  test("anything larger is refused by the schemas with a clear message", () => {
    const price = productInputSchema.safeParse({ name: "X", category: "software", price: MAX_PRICE + 1 });
    expect(price.error?.issues[0]?.message).toBe("Price must be at most $1,000,000");
    const order = {
      fullName: "Ada Lovelace",
      email: "ada@example.com",
      address: "12 Analytical Street",
      city: "London",
      country: "United Kingdom",
      paymentMethod: "stripe",
      idempotencyKey: crypto.randomUUID(),
    };
    const item = { productId: crypto.randomUUID(), quantity: MAX_QUANTITY + 1 };
    expect(placeOrderSchema.safeParse({ ...order, items: [item] }).error?.issues[0]?.message).toBe(
      `Quantity must be at most ${MAX_QUANTITY}`,
    );
    const lines = Array.from({ length: MAX_ORDER_LINES + 1 }, () => ({ ...item, quantity: 1 }));
    expect(placeOrderSchema.safeParse({ ...order, items: lines }).error?.issues[0]?.message).toBe(
      `An order can hold at most ${MAX_ORDER_LINES} different products`,
    );
  });
});

describe("the billing form's business buyer", () => {
  const form = {
    fullName: "Ada Lovelace",
    email: "ada@example.com",
    address: "12 Analytical Street",
    city: "Mumbai",
    country: "IN",
    paymentMethod: "stripe",
  };
  const messages = (values: object) =>
    billingFormSchema
      .safeParse({ ...form, ...values })
      .error?.issues.map((i) => [i.path.join("."), i.message]);

  test("a bad tax ID is reported together with the other fields' problems", () => {
    const badGstin = "This GSTIN's last character does not match the rest: check it for a typo";
    expect(messages({ fullName: "", business: true, company: "Acme", taxId: "27AAPFU0939F1ZW" })).toEqual([
      ["fullName", "Full name must be at least 2 characters"],
      ["taxId", badGstin],
    ]);
    // No payment method chosen yet is an aborting issue: the business check still runs.
    expect(
      messages({ paymentMethod: undefined, business: true, company: "Acme", taxId: "27AAPFU0939F1ZW" }),
    ).toEqual([
      ["paymentMethod", "Please select a payment method"],
      ["taxId", badGstin],
    ]);
  });

  test("a company name is needed; a country without tax ID asks none; a consumer gives neither", () => {
    expect(messages({ business: true, taxId: "27AAPFU0939F1ZV" })).toEqual([
      ["company", "Enter your company name"],
    ]);
    expect(messages({ country: "US", business: true, company: "Acme Inc" })).toBeUndefined();
    expect(messages({ taxId: "nonsense" })).toBeUndefined();
  });

  test("the country is an ISO code; an English name reads as its code", () => {
    expect(billingFormSchema.parse({ ...form, country: "United Arab Emirates" }).country).toBe("AE");
    expect(messages({ country: "Atlantis" })).toEqual([["country", "Please select a country"]]);
  });
});

test("a place-order body that is not an object fails validation rather than crashing the business check", () => {
  for (const body of [null, 42, "x", []]) {
    expect(placeOrderSchema.safeParse(body).success).toBe(false);
  }
});
