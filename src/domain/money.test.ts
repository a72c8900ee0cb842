import fc from "fast-check";
import { describe, expect, test, vi } from "vitest";
import { MAX_ORDER_LINES, MAX_QUANTITY } from "#domain/checkout";
import type { CurrencyCode } from "#domain/currency";
import {
  chargeCents,
  computeTotals,
  convertFromUsd,
  decimalDigits,
  type FxRate,
  formatAmount,
  formatOwed,
  formatPrice,
  formatRatePercent,
  formatUnitPrice,
  formatUsd,
  fromUnits,
  groupThousands,
  isPerTransaction,
  lineTotal,
  MONEY_SCALE,
  toUnits,
} from "#domain/money";
import { MAX_PRICE } from "#domain/product-admin";

// Binary-exact rates so converted amounts can be compared exactly.
const exactRates: FxRate[] = [
  { currencyCode: "EUR", rateToUsd: 0.5, fxBuffer: 0.25 },
  { currencyCode: "GBP", rateToUsd: 0.75, fxBuffer: 0 },
  { currencyCode: "AED", rateToUsd: 4, fxBuffer: 0.5 },
];

const realisticRates: FxRate[] = [
  { currencyCode: "INR", rateToUsd: 83, fxBuffer: 0.02 },
  { currencyCode: "GBP", rateToUsd: 0.79, fxBuffer: 0.02 },
];

describe("constants", () => {
  test("money is kept to four decimals", () => {
    expect(MONEY_SCALE).toBe(4);
  });
});

describe("convertFromUsd", () => {
  test("multiplies non-USD prices by rate_to_usd and (1 + fx_buffer)", () => {
    expect(convertFromUsd(10, "EUR", exactRates)).toBe(6.25);
    expect(convertFromUsd(10, "AED", exactRates)).toBe(60);
  });

  test("a zero buffer applies the bare rate", () => {
    expect(convertFromUsd(10, "GBP", exactRates)).toBe(7.5);
  });

  test("applies the realistic INR rate with its buffer", () => {
    expect(convertFromUsd(10, "INR", realisticRates)).toBeCloseTo(846.6, 10);
    expect(convertFromUsd(0.004, "INR", realisticRates)).toBeCloseTo(0.33864, 12);
  });

  test("picks the rate row of the requested currency", () => {
    expect(convertFromUsd(10, "GBP", [...realisticRates, ...exactRates])).toBeCloseTo(8.058, 10);
  });

  test("leaves USD unchanged even when a USD rate row exists", () => {
    expect(convertFromUsd(12.34, "USD", [{ currencyCode: "USD", rateToUsd: 2, fxBuffer: 0.5 }])).toBe(12.34);
  });

  test("leaves a currency with no rate row unconverted", () => {
    expect(convertFromUsd(12.34, "INR", exactRates)).toBe(12.34);
    expect(convertFromUsd(12.34, "EUR", [])).toBe(12.34);
  });

  test("zero stays zero", () => {
    expect(convertFromUsd(0, "EUR", exactRates)).toBe(0);
  });
});

describe("formatAmount", () => {
  const cases: [number, CurrencyCode, string][] = [
    // USD
    [0, "USD", "$0"],
    [0.999, "USD", "$0.999"],
    [1, "USD", "$1"],
    [999.5, "USD", "$1,000"],
    [1000, "USD", "$1,000"],
    [99999, "USD", "$99,999"],
    [100000, "USD", "$100,000"],
    [9999999, "USD", "$9,999,999"],
    [10000000, "USD", "$10,000,000"],
    // EUR
    [0, "EUR", "€0"],
    [0.999, "EUR", "€0.999"],
    [1, "EUR", "€1"],
    [999.5, "EUR", "€1,000"],
    [1000, "EUR", "€1,000"],
    [99999, "EUR", "€99,999"],
    [100000, "EUR", "€100,000"],
    [9999999, "EUR", "€9,999,999"],
    [10000000, "EUR", "€10,000,000"],
    // GBP
    [0, "GBP", "£0"],
    [0.999, "GBP", "£0.999"],
    [1, "GBP", "£1"],
    [999.5, "GBP", "£1,000"],
    [1000, "GBP", "£1,000"],
    [99999, "GBP", "£99,999"],
    [100000, "GBP", "£100,000"],
    [9999999, "GBP", "£9,999,999"],
    [10000000, "GBP", "£10,000,000"],
    // AED: text symbol followed by a space
    [0, "AED", "AED 0"],
    [0.999, "AED", "AED 0.999"],
    [1, "AED", "AED 1"],
    [37, "AED", "AED 37"],
    [999.5, "AED", "AED 1,000"],
    [1000, "AED", "AED 1,000"],
    [99999, "AED", "AED 99,999"],
    [100000, "AED", "AED 100,000"],
    [9999999, "AED", "AED 9,999,999"],
    [10000000, "AED", "AED 10,000,000"],
    // INR: below 1 keeps three decimals (documented project choice), then grouping, lakh, crore
    [0, "INR", "₹0"],
    [0.999, "INR", "₹0.999"],
    [1, "INR", "₹1"],
    [999.5, "INR", "₹1,000"],
    [1000, "INR", "₹1,000"],
    [99999, "INR", "₹99,999"],
    [100000, "INR", "₹1.0L"],
    [150000, "INR", "₹1.5L"],
    [9999999, "INR", "₹100.0L"],
    [10000000, "INR", "₹1.0Cr"],
    [25000000, "INR", "₹2.5Cr"],
    [1000000000, "INR", "₹100.0Cr"],
  ];

  test.each(cases)("formats %s %s as %s", (amount, currency, expected) => {
    expect(formatAmount(amount, currency)).toBe(expected);
  });

  test("amounts strictly between 0 and 1 show exactly three decimals", () => {
    expect(formatAmount(0.004, "USD")).toBe("$0.004");
    expect(formatAmount(0.1, "EUR")).toBe("€0.100");
    expect(formatAmount(0.5, "INR")).toBe("₹0.500");
    expect(formatAmount(0.33864, "INR")).toBe("₹0.339");
  });

  test("amounts between 1 and 1,000 have no decimals", () => {
    expect(formatAmount(1.4, "USD")).toBe("$1");
    expect(formatAmount(1.5, "GBP")).toBe("£2");
    expect(formatAmount(49.99, "EUR")).toBe("€50");
    expect(formatAmount(999.4, "USD")).toBe("$999");
  });
});

describe("isPerTransaction", () => {
  test("needs both a USD amount below 1 and 'API' in the name", () => {
    expect(isPerTransaction("Geo API", 0.004)).toBe(true);
    expect(isPerTransaction("Geo API", 0.999)).toBe(true);
    expect(isPerTransaction("Geo API", 1)).toBe(false);
    expect(isPerTransaction("Rapid Tool", 0.004)).toBe(false);
    expect(isPerTransaction("api thing", 0.004)).toBe(false);
  });
});

describe("formatPrice", () => {
  test("appends /transaction for a sub-dollar API product", () => {
    expect(formatPrice(0.004, "USD", [], { productName: "Geo API" })).toBe("$0.004/transaction");
    expect(formatPrice(0.999, "USD", [], { productName: "Geo API" })).toBe("$0.999/transaction");
  });

  test("the 'API' match is case-sensitive", () => {
    expect(formatPrice(0.004, "USD", [], { productName: "Rapid Tool" })).toBe("$0.004");
    expect(formatPrice(0.004, "USD", [], { productName: "api thing" })).toBe("$0.004");
    expect(formatPrice(0.004, "USD", [], { productName: "OpenAPI Gateway" })).toBe("$0.004/transaction");
  });

  test("no suffix at a price of 1 USD or above", () => {
    expect(formatPrice(1, "USD", [], { productName: "Geo API" })).toBe("$1");
    expect(formatPrice(49.99, "USD", [], { productName: "Geo API" })).toBe("$50");
  });

  test("no suffix without a product name", () => {
    expect(formatPrice(0.004, "USD", [])).toBe("$0.004");
  });

  test("converts before formatting", () => {
    expect(formatPrice(10, "EUR", exactRates)).toBe("€6");
    expect(formatPrice(10, "AED", exactRates)).toBe("AED 60");
    expect(formatPrice(10, "INR", realisticRates)).toBe("₹847");
    expect(formatPrice(2000, "INR", realisticRates)).toBe("₹1.7L");
  });

  test("formats an unconverted amount when the currency has no rate", () => {
    expect(formatPrice(10, "INR", exactRates)).toBe("₹10");
  });

  test("the suffix depends on the USD amount, not the converted one", () => {
    // 0.5 USD is 42.33 INR: still per transaction.
    expect(formatPrice(0.5, "INR", realisticRates, { productName: "Geo API" })).toBe("₹42/transaction");
    expect(formatPrice(0.004, "INR", realisticRates, { productName: "Geo API" })).toBe("₹0.339/transaction");
    // 1 USD is 0.8058 GBP: below 1 once converted, but not per transaction.
    expect(formatPrice(1, "GBP", realisticRates, { productName: "Geo API" })).toBe("£0.806");
  });
});

describe("formatPrice with a pricing unit", () => {
  test("names the unit after the price", () => {
    expect(formatPrice(9, "USD", [], { unit: "month" })).toBe("$9 / month");
    expect(formatPrice(0.006, "USD", [], { unit: "minute" })).toBe("$0.006 / minute");
    expect(formatPrice(12, "USD", [], { unit: "user_month" })).toBe("$12 / user / month");
    expect(formatPrice(0.004, "USD", [], { unit: "api_call", productName: "Geo API" })).toBe(
      "$0.004 / API call",
    );
    expect(formatPrice(99, "USD", [], { unit: "year" })).toBe("$99 / year");
    expect(formatPrice(3, "USD", [], { unit: "unit" })).toBe("$3 / unit");
  });

  test("a one-time price is the amount alone, even for a sub-dollar API product", () => {
    expect(formatPrice(499, "USD", [], { unit: "one_time" })).toBe("$499");
    expect(formatPrice(0.004, "USD", [], { unit: "one_time", productName: "Geo API" })).toBe("$0.004");
  });

  test("without a unit the spec's /transaction rule still applies", () => {
    expect(formatPrice(0.004, "USD", [], { unit: null, productName: "Geo API" })).toBe("$0.004/transaction");
  });

  test("an exact price keeps its cents and the unit", () => {
    expect(formatPrice(49.99, "USD", [], { unit: "month", exact: true })).toBe("$49.99 / month");
    expect(formatPrice(10, "EUR", exactRates, { unit: "year", exact: true })).toBe("€6.25 / year");
  });
});

describe("formatOwed", () => {
  test("USD amounts to the cent, half a cent away from zero (issue 30: no fractions of a cent)", () => {
    expect(formatOwed(234.15)).toBe("$234.15");
    expect(formatOwed("11.2")).toBe("$11.20");
    expect(formatOwed(0)).toBe("$0.00");
    expect(formatOwed(0.006)).toBe("$0.01");
    expect(formatOwed("12.3456")).toBe("$12.35");
    expect(formatOwed(31206.404)).toBe("$31,206.40");
    expect(formatOwed("1.005")).toBe("$1.01");
    expect(formatOwed(-1.005)).toBe("−$1.01");
    expect(formatOwed(42.294)).toBe("$42.29");
    expect(formatOwed(1234567.5)).toBe("$1,234,567.50");
  });

  test("never rounds to whole units as catalogue prices do", () => {
    expect(formatAmount(234.15, "USD")).toBe("$234");
    expect(formatOwed(234.15, "USD")).toBe("$234.15");
  });

  test("converted amounts are to the cent", () => {
    expect(formatOwed(10, "EUR", exactRates)).toBe("€6.25");
    expect(formatOwed(10.01, "GBP", exactRates)).toBe("£7.51");
    expect(formatOwed(10, "AED", exactRates)).toBe("AED 60.00");
    expect(formatOwed(0.004, "EUR", exactRates)).toBe("€0.00");
    expect(formatOwed(2000, "INR", realisticRates)).toBe("₹1,69,320.00");
  });

  test("negative amounts carry a minus sign before the symbol", () => {
    expect(formatOwed(-5)).toBe("−$5.00");
    expect(formatOwed(-0.00001)).toBe("$0.00");
  });

  test("what the lines show adds up to the order's subtotal, to the unit", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            price: fc.integer({ min: 0, max: 9_999_999 }).map((units) => fromUnits(units)),
            quantity: fc.integer({ min: 1, max: 99 }),
          }),
          { minLength: 1, maxLength: 10 },
        ),
        (lines) => {
          const totals = computeTotals(lines, "0.1800");
          const shown = lines.map((line) => formatOwed(lineTotal(line.price, line.quantity)));
          const parsed = shown.map((text) => toUnits(text.replace(/[$,]/g, "")));
          expect(parsed.reduce((a, b) => a + b, 0)).toBe(toUnits(totals.subtotal));
          expect(toUnits(formatOwed(totals.total).replace(/[$,]/g, ""))).toBe(toUnits(totals.total));
        },
      ),
    );
  });
});

describe("formatUsd", () => {
  test("shows an amount to the cent with grouping", () => {
    expect(formatUsd(0)).toBe("$0.00");
    expect(formatUsd(0.004)).toBe("$0.00");
    expect(formatUsd(49.99)).toBe("$49.99");
    expect(formatUsd(1234.5)).toBe("$1,234.50");
    expect(formatUsd(0.12345)).toBe("$0.12");
  });
});

describe("formatUnitPrice", () => {
  test("a USD unit price keeps its sub-cent digits; a converted one is to the cent, below 1 to four decimals", () => {
    expect(formatUnitPrice(0.006)).toBe("$0.006");
    expect(formatUnitPrice("12.3456")).toBe("$12.3456");
    expect(formatUnitPrice(49)).toBe("$49.00");
    expect(formatUnitPrice(0.004, "EUR", exactRates)).toBe("€0.0025");
    expect(formatUnitPrice(10.01, "GBP", exactRates)).toBe("£7.51");
  });
});

describe("toUnits / fromUnits", () => {
  test("toUnits counts ten-thousandths from strings and numbers", () => {
    expect(toUnits("49.99")).toBe(499900);
    expect(toUnits("0.004")).toBe(40);
    expect(toUnits("0.0001")).toBe(1);
    expect(toUnits(0.004)).toBe(40);
    expect(toUnits(12)).toBe(120000);
    expect(toUnits("0")).toBe(0);
  });

  test("toUnits rounds to the nearest unit", () => {
    expect(toUnits("0.00004")).toBe(0);
    expect(toUnits("0.00006")).toBe(1);
    expect(toUnits(0.1 + 0.2)).toBe(3000);
  });

  test("fromUnits prints four decimals", () => {
    expect(fromUnits(0)).toBe("0.0000");
    expect(fromUnits(1)).toBe("0.0001");
    expect(fromUnits(40)).toBe("0.0040");
    expect(fromUnits(499900)).toBe("49.9900");
    expect(fromUnits(1234567890)).toBe("123456.7890");
  });

  test.each(["0.0000", "0.0001", "0.0040", "49.9900", "999999.9999", "9999999999.9999"])(
    "round trips %s",
    (amount) => {
      expect(fromUnits(toUnits(amount))).toBe(amount);
    },
  );

  test("normalises a shorter decimal string to four places", () => {
    expect(fromUnits(toUnits("49.99"))).toBe("49.9900");
    expect(fromUnits(toUnits("7"))).toBe("7.0000");
  });

  test.each(["abc", "1.2.3", "12abc", "$5", "Infinity"])("rejects the string %j", (amount) => {
    expect(() => toUnits(amount)).toThrow(new RangeError(`Not a money amount: ${amount}`));
  });

  test.each([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])(
    "rejects the number %s",
    (amount) => {
      expect(() => toUnits(amount)).toThrow(RangeError);
      expect(() => toUnits(amount)).toThrow(`Not a money amount: ${amount}`);
    },
  );
});

describe("computeTotals", () => {
  test("an empty cart totals zero", () => {
    expect(computeTotals([], "0.05")).toEqual({
      subtotal: "0.0000",
      tax: "0.0000",
      total: "0.0000",
      lineTaxes: [],
    });
  });

  test("rounds a sub-cent line to the cent before taxing it", () => {
    // 3 × $0.004 is $0.012, owed as $0.01; 5% of that is a twentieth of a cent: no tax.
    expect(computeTotals([{ price: "0.004", quantity: 3 }], "0.05")).toEqual({
      subtotal: "0.0100",
      tax: "0.0000",
      total: "0.0100",
      lineTaxes: ["0.0000"],
    });
    // 99 minutes at $0.006 are $0.594: $0.59.
    expect(computeTotals([{ price: "0.006", quantity: 99 }], "0").subtotal).toBe("0.5900");
  });

  test("computes subtotal, 5% tax and total in whole cents", () => {
    // 5% of 99.98 is 4.999: $5.00.
    expect(computeTotals([{ price: "49.99", quantity: 2 }], "0.05")).toEqual({
      subtotal: "99.9800",
      tax: "5.0000",
      total: "104.9800",
      lineTaxes: ["5.0000"],
    });
  });

  test("adds several lines", () => {
    expect(
      computeTotals(
        [
          { price: "49.99", quantity: 2 },
          { price: "0.004", quantity: 3 },
        ],
        "0.05",
      ),
    ).toEqual({ subtotal: "99.9900", tax: "5.0000", total: "104.9900", lineTaxes: ["5.0000", "0.0000"] });
  });

  test("avoids floating-point drift", () => {
    expect(
      computeTotals(
        [
          { price: "0.1", quantity: 1 },
          { price: "0.2", quantity: 1 },
        ],
        "0.05",
      ),
    ).toEqual({ subtotal: "0.3000", tax: "0.0200", total: "0.3200", lineTaxes: ["0.0100", "0.0100"] });
  });

  test("rounds tax to the nearest cent, half up", () => {
    // 5% of 0.10 is 0.005: rounds up.
    expect(computeTotals([{ price: "0.10", quantity: 1 }], "0.05").tax).toBe("0.0100");
    // 5% of 0.29 is 0.0145: rounds down.
    expect(computeTotals([{ price: "0.29", quantity: 1 }], "0.05").tax).toBe("0.0100");
    // 5% of 0.09 is 0.0045: rounds down to nothing.
    expect(computeTotals([{ price: "0.09", quantity: 1 }], "0.05")).toEqual({
      subtotal: "0.0900",
      tax: "0.0000",
      total: "0.0900",
      lineTaxes: ["0.0000"],
    });
  });

  test("taxes at the rate it is given, rounding the order's tax half up once", () => {
    // A price held to the fourth decimal is owed to the cent: 10.0025 is 10.00 (half a cent rounds up
    // only from 0.005); 18% of 10.00 is 1.80.
    expect(computeTotals([{ price: "10.0025", quantity: 1 }], "0.1800")).toEqual({
      subtotal: "10.0000",
      tax: "1.8000",
      total: "11.8000",
      lineTaxes: ["1.8000"],
    });
    // 18% of 10.03 is 1.8054, to the cent 1.81.
    expect(computeTotals([{ price: "10.03", quantity: 1 }], "0.1800").tax).toBe("1.8100");
    expect(computeTotals([{ price: "100", quantity: 1 }], "0.255").tax).toBe("25.5000");
    expect(computeTotals([{ price: "100", quantity: 3 }], "0").tax).toBe("0.0000");
  });

  test("splits the order's tax over the lines by largest remainder, in whole cents", () => {
    // 3 × 5% of 0.10 is 0.015, rounded to 0.02: the first two lines get a cent each.
    const three = computeTotals(
      [
        { price: "0.10", quantity: 1 },
        { price: "0.10", quantity: 1 },
        { price: "0.10", quantity: 1 },
      ],
      "0.05",
    );
    expect(three.tax).toBe("0.0200");
    expect(three.lineTaxes).toEqual(["0.0100", "0.0100", "0.0000"]);
    // 5% of 0.11 is 0.0055 (0.55 of a cent), of 0.18 0.009 (0.9): 0.0145 rounds to one cent, and the
    // larger remainder wins it.
    const uneven = computeTotals(
      [
        { price: "0.11", quantity: 1 },
        { price: "0.18", quantity: 1 },
      ],
      "0.05",
    );
    expect(uneven.tax).toBe("0.0100");
    expect(uneven.lineTaxes).toEqual(["0.0000", "0.0100"]);
  });

  test("refuses a rate that is not a decimal with at most four places", () => {
    for (const bad of ["", "5%", "0.12345", "-0.1", "abc"]) {
      expect(() => computeTotals([{ price: "1", quantity: 1 }], bad)).toThrow(RangeError);
    }
  });

  test("the line shares always add up to exactly the order's tax", () => {
    const line = fc.record({
      price: fc.integer({ min: 0, max: toUnits(MAX_PRICE) }).map((units) => fromUnits(units)),
      quantity: fc.integer({ min: 1, max: MAX_QUANTITY }),
    });
    const rate = fc.integer({ min: 0, max: 5_000 }).map((units) => fromUnits(units));
    fc.assert(
      fc.property(fc.array(line, { maxLength: MAX_ORDER_LINES }), rate, (lines, r) => {
        const totals = computeTotals(lines, r);
        const shares = totals.lineTaxes.reduce((sum, share) => sum + BigInt(toUnits(share)), 0n);
        expect(totals.lineTaxes).toHaveLength(lines.length);
        expect(shares).toBe(BigInt(toUnits(totals.tax)));
        expect(totals.lineTaxes.every((share) => toUnits(share) >= 0)).toBe(true);
        expect(toUnits(totals.total)).toBe(toUnits(totals.subtotal) + toUnits(totals.tax));
        // Every amount owed is whole cents, so it is exactly what a card is charged.
        for (const amount of [totals.subtotal, totals.tax, totals.total, ...totals.lineTaxes]) {
          expect(toUnits(amount) % 100).toBe(0);
          expect(chargeCents(amount) * 100).toBe(toUnits(amount));
        }
      }),
      { numRuns: 500 },
    );
  });

  test("formatRatePercent reads a rate as people do", () => {
    expect(formatRatePercent("0.1800")).toBe("18%");
    expect(formatRatePercent("0.2550")).toBe("25.5%");
    expect(formatRatePercent("0.0500")).toBe("5%");
    expect(formatRatePercent("0.0000")).toBe("0%");
    expect(formatRatePercent("0.1234")).toBe("12.34%");
  });

  test("rejects a line whose price is not a number", () => {
    expect(() => computeTotals([{ price: "free", quantity: 1 }], "0.05")).toThrow("Not a money amount: free");
  });
});

test("toUnits refuses text that is not a plain decimal", () => {
  for (const bad of ["", "  ", "0x10", "1e3", "12,50"]) expect(() => toUnits(bad)).toThrow(RangeError);
  expect(toUnits(" 12.5 ")).toBe(125_000);
});

describe("lineTotal", () => {
  test.each([
    ["0.1 × 3 is exactly 0.3", "0.1", 3, "0.3000"],
    ["a sub-cent API price, to the cent", "0.004", 7, "0.0300"],
    ["half a cent rounds up", "0.005", 1, "0.0100"],
    ["less than half a cent is nothing", "0.004", 1, "0.0000"],
    ["a number price, as the web holds it", 19.99, 3, "59.9700"],
    ["the largest price at the largest quantity", "1000000", 99, "99000000.0000"],
    ["quantity 1 is the price, to the cent", "12.3456", 1, "12.3500"],
  ])("%s", (_name, price, quantity, total) => {
    expect(lineTotal(price, quantity)).toBe(total);
  });

  test("the order subtotal is the sum of its line totals", () => {
    const lines = [
      { price: "0.1", quantity: 3 },
      { price: "0.0045", quantity: 11 },
    ];
    const sum = lines.reduce((units, l) => units + toUnits(lineTotal(l.price, l.quantity)), 0);
    expect(computeTotals(lines, "0.05").subtotal).toBe(fromUnits(sum));
  });

  test("refuses what is not an amount", () => {
    expect(() => lineTotal("1e3", 1)).toThrow(RangeError);
  });
});

describe("chargeCents", () => {
  test("rounds to whole cents, half a cent up", () => {
    expect(chargeCents("10.0000")).toBe(1000);
    expect(chargeCents("20.9895")).toBe(2099);
    expect(chargeCents("20.9849")).toBe(2098);
    expect(chargeCents("0.0050")).toBe(1);
    expect(chargeCents("0.0049")).toBe(0);
    expect(chargeCents("-1.0050")).toBe(-101);
  });
});

describe("allocateUnits", () => {
  test("splits exactly, in proportion, the rest to the largest remainders", async () => {
    const { allocateUnits } = await import("#domain/money");
    expect(allocateUnits(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(allocateUnits(5_000, [1_000_000, 0])).toEqual([5_000, 0]);
    expect(allocateUnits(7, [0, 0])).toEqual([7, 0]);
    const fc = (await import("fast-check")).default;
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10 ** 12 }),
        fc.array(fc.integer({ min: 0, max: 10 ** 9 }), { minLength: 1, maxLength: 50 }),
        (total, weights) => allocateUnits(total, weights).reduce((a, b) => a + b, 0) === total,
      ),
    );
  });
});

describe("groupThousands", () => {
  test("writes a whole number as Intl's en-US grouping does", () => {
    const intl = new Intl.NumberFormat("en-US");
    for (const n of [0, -0, 7, 999, 1_000, -1_000, 12_345, 999_999, 1_000_000, -98_765_432, 9_999_999_999])
      expect(groupThousands(n)).toBe(intl.format(n));
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), (n) => groupThousands(n) === intl.format(n)),
    );
  });

  test("formatAmount rounds a catalogue price as Intl did, half away from zero", () => {
    const intl = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
    for (const amount of [1, 1.5, 2.5, 1_234.49, 1_234.5, 99_999.5, -2.5, -1_234.5, -0.5, 1e9 + 0.5])
      expect(formatAmount(amount, "USD")).toBe(`$${intl.format(amount)}`);
    fc.assert(
      fc.property(fc.double({ min: -1e10, max: 1e10, noNaN: true }), (amount) => {
        if (amount > 0 && amount < 1) return true;
        return formatAmount(amount, "EUR") === `€${intl.format(amount)}`;
      }),
    );
  });

  test("loading the money and figures modules and formatting dollar prices and counts makes no Intl formatter", async () => {
    // The first Intl formatter a page makes loads the locale data: a long task on a phone. The public
    // pages load these modules and format prices and figures while React takes them over.
    const original = Intl.NumberFormat;
    let made = 0;
    Intl.NumberFormat = new Proxy(original, {
      construct(target, args) {
        made++;
        return Reflect.construct(target, args);
      },
    });
    try {
      vi.resetModules();
      const money = await import("#domain/money");
      const stats = await import("#domain/marketplace-stats");
      expect(money.formatPrice(1_234.5, "USD", [], { unit: "month" })).toBe("$1,235 / month");
      expect(stats.countLabel(12_345)).toBe("12K+");
      expect(money.formatPrice(0.0045, "USD", [], { exact: true })).toBe("$0.0045");
      expect(money.formatOwed(-1_234.5)).toBe("−$1,234.50");
      expect(made).toBe(0);
    } finally {
      Intl.NumberFormat = original;
    }
  });
});

describe("decimalDigits", () => {
  test("writes an amount as Intl's en-US format with two to N decimals does", () => {
    for (const max of [2, 3, 4]) {
      const intl = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: max });
      for (const n of [
        0,
        1,
        1.005,
        2.675,
        0.125,
        0.0045,
        9.995,
        999.9999,
        1_234_567.891,
        31_206.404,
        0.1 + 0.2,
      ])
        expect(decimalDigits(n, max)).toBe(intl.format(n));
      fc.assert(
        fc.property(fc.double({ min: 0, max: 1e10, noNaN: true }), (n) => {
          const written = decimalDigits(n, max);
          return written === null || written === intl.format(n);
        }),
        { numRuns: 2000 },
      );
      fc.assert(
        fc.property(fc.integer({ min: 0, max: 99_999_999_999_999 }), (units) => {
          const n = units / 10_000;
          return decimalDigits(n, max) === intl.format(n);
        }),
        { numRuns: 2000 },
      );
    }
  });
});
