import { describe, expect, test } from "vitest";
import {
  decideTax,
  EU_REVERSE_CHARGE_NOTE,
  effectiveTaxRates,
  OUT_OF_SCOPE_NOTE,
  percentToRate,
  rateToPercent,
  taxJurisdictions,
  taxLineLabel,
  taxRateInputSchema,
  UK_REVERSE_CHARGE_NOTE,
  vatChargedNote,
} from "#domain/tax";
import { EU_MEMBER_STATES } from "#domain/tax-ids";

const defaults = effectiveTaxRates([]);
const consumer = (country: string) => decideTax({ country, business: null }, defaults, null);
const confirmed = (register: "VIES" | "HMRC") => ({ register, status: "valid" as const });

describe("default rates", () => {
  test("every jurisdiction: UAE, India, the 27 member states and the UK", () => {
    expect(taxJurisdictions).toHaveLength(30);
    expect(EU_MEMBER_STATES).toHaveLength(27);
    for (const j of taxJurisdictions) expect(j.defaultRate).toMatch(/^0\.\d{4}$/);
  });

  test.each([
    ["DE", "0.1900", "Germany VAT"],
    ["FR", "0.2000", "France VAT"],
    ["IE", "0.2300", "Ireland VAT"],
    ["HU", "0.2700", "Hungary VAT"],
    ["FI", "0.2550", "Finland VAT"],
    ["LU", "0.1700", "Luxembourg VAT"],
    ["GR", "0.2400", "Greece VAT"],
  ])("%s consumers pay %s %s", (country, rate, label) => {
    expect(consumer(country)).toEqual({
      jurisdiction: country,
      label,
      rate,
      reverseCharge: false,
      note: null,
    });
  });
});

describe("decideTax", () => {
  test("UAE: 5% VAT for consumers and businesses alike", () => {
    const expected = {
      jurisdiction: "AE",
      label: "UAE VAT",
      rate: "0.0500",
      reverseCharge: false,
      note: null,
    };
    expect(consumer("AE")).toEqual(expected);
    const business = { company: "Acme FZE", taxId: "100123456700003", kind: "TRN" as const };
    expect(decideTax({ country: "AE", business }, defaults, null)).toEqual(expected);
  });

  test("India: 18% GST for consumers and businesses alike", () => {
    const expected = {
      jurisdiction: "IN",
      label: "India GST",
      rate: "0.1800",
      reverseCharge: false,
      note: null,
    };
    expect(consumer("IN")).toEqual(expected);
    const business = { company: "Acme Pvt Ltd", taxId: "27AAPFU0939F1ZV", kind: "GSTIN" as const };
    expect(decideTax({ country: "IN", business }, defaults, null)).toEqual(expected);
    expect(taxLineLabel(expected)).toBe("India GST (18%)");
  });

  test("EU business with a VAT number VIES confirmed: reverse charge at 0%", () => {
    const business = { company: "Acme GmbH", taxId: "DE136695976", kind: "VAT" as const };
    const decision = decideTax({ country: "DE", business }, defaults, confirmed("VIES"));
    expect(decision).toEqual({
      jurisdiction: "DE",
      label: "Reverse charge",
      rate: "0.0000",
      reverseCharge: true,
      note: EU_REVERSE_CHARGE_NOTE,
    });
    expect(taxLineLabel(decision)).toBe("Reverse charge");
  });

  test("UK: 20% for consumers, reverse charge for a business with a VAT number HMRC confirmed", () => {
    expect(consumer("GB")).toEqual({
      jurisdiction: "GB",
      label: "UK VAT",
      rate: "0.2000",
      reverseCharge: false,
      note: null,
    });
    const business = { company: "Acme Ltd", taxId: "GB980780684", kind: "VAT" as const };
    expect(decideTax({ country: "GB", business }, defaults, confirmed("HMRC"))).toMatchObject({
      rate: "0.0000",
      reverseCharge: true,
      note: UK_REVERSE_CHARGE_NOTE,
    });
  });

  test("a well-formed VAT number the register did not confirm pays VAT, with why and how to reclaim it", () => {
    const business = { company: "Made Up GmbH", taxId: "DE136695976", kind: "VAT" as const };
    const germanVat = { jurisdiction: "DE", label: "Germany VAT", rate: "0.1900", reverseCharge: false };
    // Check digits alone earn nothing: without a register's answer, the VAT is charged.
    expect(decideTax({ country: "DE", business }, defaults, null)).toMatchObject(germanVat);
    for (const status of ["invalid", "unavailable"] as const) {
      const decision = decideTax({ country: "DE", business }, defaults, { register: "VIES", status });
      expect(decision).toEqual({ ...germanVat, note: vatChargedNote({ register: "VIES", status }) });
      expect(decision.note).toContain("reclaim this VAT");
    }
    expect(vatChargedNote({ register: "VIES", status: "invalid" })).toMatch(
      /^VAT charged: VIES does not list/,
    );
    expect(vatChargedNote({ register: "VIES", status: "unavailable" })).toMatch(
      /^VAT charged: VIES could not confirm/,
    );
    const uk = { company: "Made Up Ltd", taxId: "GB980780684", kind: "VAT" as const };
    const unchecked = decideTax({ country: "GB", business: uk }, defaults, {
      register: "HMRC",
      status: "unchecked",
    });
    expect(unchecked).toMatchObject({ rate: "0.2000", reverseCharge: false });
    expect(unchecked.note).toMatch(/^VAT charged: UK VAT numbers cannot be checked with HMRC/);
  });

  test("any other country: no tax, with the reason", () => {
    for (const country of ["US", "CH", "NO", "SA"]) {
      expect(consumer(country)).toEqual({
        jurisdiction: null,
        label: "No tax",
        rate: "0.0000",
        reverseCharge: false,
        note: OUT_OF_SCOPE_NOTE,
      });
    }
    expect(decideTax({ country: "US", business: null }, defaults, null).rate).toBe("0.0000");
  });

  test("an admin's override is the rate charged", () => {
    const rates = effectiveTaxRates([{ jurisdiction: "IN", rate: "0.12" }]);
    expect(decideTax({ country: "IN", business: null }, rates, null).rate).toBe("0.1200");
    expect(decideTax({ country: "DE", business: null }, rates, null).rate).toBe("0.1900");
  });
});

describe("the admin's rate input", () => {
  test.each(["0", "5", "18", "25.5", "12.34", "50", " 7.5 "])("%j is accepted", (ratePercent) => {
    expect(taxRateInputSchema.safeParse({ ratePercent }).success).toBe(true);
  });

  test.each(["", "-1", "50.01", "51", "12.345", "abc", "1e1", "100"])("%j is refused", (ratePercent) => {
    expect(taxRateInputSchema.safeParse({ ratePercent }).error?.issues[0]?.message).toBe(
      "Enter a rate from 0 to 50%, with at most 2 decimals",
    );
  });

  test("percent and stored rate convert exactly both ways", () => {
    expect(percentToRate("25.5")).toBe("0.2550");
    expect(percentToRate("50")).toBe("0.5000");
    expect(percentToRate("0.01")).toBe("0.0001");
    expect(rateToPercent("0.2550")).toBe("25.5");
    expect(rateToPercent("0.1800")).toBe("18");
  });
});
