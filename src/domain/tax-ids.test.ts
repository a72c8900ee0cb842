import { describe, expect, test } from "vitest";
import { checkTaxId, gstinCheckCharacter, taxIdFieldFor } from "#domain/tax-ids";

function message(country: string, raw: string): string | undefined {
  const result = checkTaxId(country, raw);
  return result.ok ? undefined : result.message;
}

describe("UAE TRN (format only: no public check digit)", () => {
  test.each([
    ["100123456700003", "100123456700003"],
    ["100 1234 5670 0003", "100123456700003"],
    ["100-234-567-890-123", "100234567890123"],
  ])("%s is valid", (raw, value) => {
    expect(checkTaxId("AE", raw)).toEqual({ ok: true, kind: "TRN", value });
  });

  test.each([
    ["10012345670000", "too short"],
    ["1001234567000031", "too long"],
    ["200123456700003", "not starting 100"],
    ["100A23456700003", "a letter"],
  ])("%s is refused (%s)", (raw) => {
    expect(message("AE", raw)).toBe("Enter a valid TRN: 15 digits starting with 100, e.g. 100123456700003");
  });
});

describe("Indian GSTIN", () => {
  test("the mod-36 check character of published GSTINs", () => {
    expect(gstinCheckCharacter("27AAPFU0939F1Z")).toBe("V");
    expect(gstinCheckCharacter("29AAGCB7383J1Z")).toBe("4");
    expect(gstinCheckCharacter("07AAGFF2194N1Z")).toBe("1");
  });

  test.each([
    ["27AAPFU0939F1ZV", "27AAPFU0939F1ZV"],
    ["29aagcb7383j1z4", "29AAGCB7383J1Z4"],
    ["07 AAGFF 2194 N 1Z1", "07AAGFF2194N1Z1"],
  ])("%s is valid", (raw, value) => {
    expect(checkTaxId("IN", raw)).toEqual({ ok: true, kind: "GSTIN", value });
  });

  test.each([
    ["27AAPFU0939F1ZW", "This GSTIN's last character does not match the rest: check it for a typo"],
    ["29AAGCB7383J1Z5", "This GSTIN's last character does not match the rest: check it for a typo"],
    ["27AAPFU0939F1Z", "Enter a valid GSTIN: 15 characters, e.g. 27AAPFU0939F1ZV"],
    ["27AAPFU0939F1ZVX", "Enter a valid GSTIN: 15 characters, e.g. 27AAPFU0939F1ZV"],
    ["27AAPF10939F1ZV", "Enter a valid GSTIN: 15 characters, e.g. 27AAPFU0939F1ZV"],
    ["27AAPFU0939F1YV", "Enter a valid GSTIN: 15 characters, e.g. 27AAPFU0939F1ZV"],
    ["39AAPFU0939F1ZV", "Enter a valid GSTIN: it starts with a state code from 01 to 38"],
    ["00AAPFU0939F1ZV", "Enter a valid GSTIN: it starts with a state code from 01 to 38"],
  ])("%s is refused", (raw, text) => {
    expect(message("IN", raw)).toBe(text);
  });
});

describe("EU and UK VAT numbers (jsvat: format and check digits)", () => {
  test.each([
    ["DE", "DE136695976", "DE136695976"],
    ["DE", "136 695 976", "DE136695976"],
    ["DE", "de-136.695.976", "DE136695976"],
    ["GB", "GB980780684", "GB980780684"],
    ["GB", "980 7806 84", "GB980780684"],
    ["AT", "ATU13585627", "ATU13585627"],
    ["AT", "U13585627", "ATU13585627"],
    ["AT", "13585627", "ATU13585627"],
    ["GR", "094259216", "EL094259216"],
    ["GR", "EL094259216", "EL094259216"],
    ["GR", "GR094259216", "EL094259216"],
    ["FR", "FR 40 303 265 045", "FR40303265045"],
    ["NL", "004495445B01", "NL004495445B01"],
    ["IE", "IE6388047V", "IE6388047V"],
    ["ES", "A28015865", "ESA28015865"],
    ["IT", "00743110157", "IT00743110157"],
    ["SE", "556188840401", "SE556188840401"],
    ["FI", "20774740", "FI20774740"],
  ])("%s %s is valid as %s", (country, raw, value) => {
    expect(checkTaxId(country, raw)).toEqual({ ok: true, kind: "VAT", value });
  });

  test.each([
    ["DE", "DE136695977", "This VAT number's check digits do not match: check it for a typo"],
    ["GB", "GB980780685", "This VAT number's check digits do not match: check it for a typo"],
    ["AT", "ATU13585626", "This VAT number's check digits do not match: check it for a typo"],
    ["DE", "DE13669597", "Enter a valid VAT number for Germany: DE followed by the number"],
    ["DE", "DE1366959761", "Enter a valid VAT number for Germany: DE followed by the number"],
    ["GB", "GB98078068", "Enter a valid VAT number for United Kingdom: GB followed by the number"],
    [
      "DE",
      "FR40303265045",
      "This VAT number is from France, not Germany: choose that country or enter the Germany number",
    ],
    [
      "FR",
      "GB980780684",
      "This VAT number is from United Kingdom, not France: choose that country or enter the France number",
    ],
  ])("%s %s is refused", (country, raw, text) => {
    expect(message(country, raw)).toBe(text);
  });
});

describe("which tax ID is asked", () => {
  test("by country", () => {
    expect(taxIdFieldFor("AE")?.label).toBe("TRN");
    expect(taxIdFieldFor("IN")?.label).toBe("GSTIN");
    expect(taxIdFieldFor("DE")?.label).toBe("VAT number");
    expect(taxIdFieldFor("GB")?.kind).toBe("VAT");
    expect(taxIdFieldFor("US")).toBeNull();
    expect(taxIdFieldFor("CH")).toBeNull();
  });

  test("an empty tax ID, or one for a country that has none, is refused clearly", () => {
    expect(message("IN", "  ")).toBe("Enter your company's GSTIN");
    expect(message("US", "12-3456789")).toBe("No tax ID is asked for buyers in United States of America.");
  });
});
