import { describe, expect, test } from "vitest";
import {
  type CurrencyCode,
  currencies,
  currencyByCode,
  DEFAULT_CURRENCY,
  isCurrencyCode,
} from "#domain/currency";

describe("currencies", () => {
  test("lists the five supported currencies", () => {
    expect(currencies.map((c) => c.code)).toEqual(["USD", "AED", "EUR", "GBP", "INR"]);
  });

  test("defaults to USD", () => {
    expect(DEFAULT_CURRENCY).toBe("USD");
  });
});

describe("isCurrencyCode", () => {
  test.each(["USD", "AED", "EUR", "GBP", "INR"])("accepts %s", (code) => {
    expect(isCurrencyCode(code)).toBe(true);
  });

  test.each<unknown>(["usd", "Usd", "JPY", " USD", "USD ", "", 1, null, undefined, {}, ["USD"]])(
    "rejects %j",
    (value) => {
      expect(isCurrencyCode(value)).toBe(false);
    },
  );
});

describe("currencyByCode", () => {
  test.each([
    ["USD", "US Dollar", "$"],
    ["AED", "UAE Dirham", "AED"],
    ["EUR", "Euro", "€"],
    ["GBP", "British Pound", "£"],
    ["INR", "Indian Rupee", "₹"],
  ] as const)("returns %s with its name and symbol", (code, name, symbol) => {
    const currency = currencyByCode(code);
    expect(currency.code).toBe(code);
    expect(currency.name).toBe(name);
    expect(currency.symbol).toBe(symbol);
  });

  test("falls back to USD for a code outside the list", () => {
    expect(currencyByCode("JPY" as CurrencyCode).code).toBe("USD");
  });
});
