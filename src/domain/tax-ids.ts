import {
  austria,
  belgium,
  bulgaria,
  checkVAT,
  croatia,
  cyprus,
  czechRepublic,
  denmark,
  estonia,
  finland,
  france,
  germany,
  greece,
  hungary,
  ireland,
  italy,
  latvia,
  lithuania,
  luxembourg,
  malta,
  netherlands,
  poland,
  portugal,
  romania,
  slovakiaRepublic,
  slovenia,
  spain,
  sweden,
  unitedKingdom,
  type Country as VatCountry,
} from "jsvat";
import { countryName } from "#domain/countries";

/** The 27 EU member states (ISO codes) and jsvat's rules for their VAT numbers. */
const euVat: Record<string, VatCountry> = {
  AT: austria,
  BE: belgium,
  BG: bulgaria,
  HR: croatia,
  CY: cyprus,
  CZ: czechRepublic,
  DK: denmark,
  EE: estonia,
  FI: finland,
  FR: france,
  DE: germany,
  GR: greece,
  HU: hungary,
  IE: ireland,
  IT: italy,
  LV: latvia,
  LT: lithuania,
  LU: luxembourg,
  MT: malta,
  NL: netherlands,
  PL: poland,
  PT: portugal,
  RO: romania,
  SK: slovakiaRepublic,
  SI: slovenia,
  ES: spain,
  SE: sweden,
};
export const EU_MEMBER_STATES: readonly string[] = Object.keys(euVat);
const vatRules: Record<string, VatCountry> = { ...euVat, GB: unitedKingdom };

export function isEuMemberState(country: string): boolean {
  return country in euVat;
}

/** A VAT number's prefix: the ISO code, except Greece's, which is EL. */
export function vatPrefix(country: string): string {
  return country === "GR" ? "EL" : country;
}
const countryOfPrefix = new Map(Object.keys(vatRules).map((code) => [vatPrefix(code), code]));

export const taxIdKinds = ["TRN", "GSTIN", "VAT"] as const;
export type TaxIdKind = (typeof taxIdKinds)[number];

/** `hint`: what the checkout says under the field. */
export type TaxIdField = { kind: TaxIdKind; label: string; hint: string };

/** The tax ID a business buyer in `country` gives, as the checkout labels it; null where none is asked. */
export function taxIdFieldFor(country: string): TaxIdField | null {
  if (country === "AE") return { kind: "TRN", label: "TRN", hint: "15 digits starting with 100" };
  if (country === "IN") return { kind: "GSTIN", label: "GSTIN", hint: "15 characters, e.g. 27AAPFU0939F1ZV" };
  if (country === "GB" || isEuMemberState(country)) {
    return { kind: "VAT", label: "VAT number", hint: `With or without the ${vatPrefix(country)} prefix` };
  }
  return null;
}

export type TaxIdCheck = { ok: true; kind: TaxIdKind; value: string } | { ok: false; message: string };

/** Spaces, dots, dashes and slashes people type inside tax IDs. */
function compact(raw: string): string {
  return raw.toUpperCase().replace(/[\s.\-/]+/g, "");
}

/**
 * Checks a business buyer's tax ID for `country` and answers it in its canonical form (upper case, no
 * separators; VAT numbers with their country prefix) or says what is wrong with it.
 */
export function checkTaxId(country: string, raw: string): TaxIdCheck {
  const field = taxIdFieldFor(country);
  if (!field) return { ok: false, message: `No tax ID is asked for buyers in ${countryName(country)}.` };
  const value = compact(raw);
  if (!value) return { ok: false, message: `Enter your company's ${field.label}` };
  if (field.kind === "TRN") return checkTrn(value);
  if (field.kind === "GSTIN") return checkGstin(value);
  return checkVatNumber(country, value);
}

/**
 * A UAE Tax Registration Number: 15 digits, starting 100. The Federal Tax Authority publishes no check
 * digit algorithm, so only the format can be checked here (its online lookup is the only full check).
 */
function checkTrn(value: string): TaxIdCheck {
  if (/^100\d{12}$/.test(value)) return { ok: true, kind: "TRN", value };
  return { ok: false, message: "Enter a valid TRN: 15 digits starting with 100, e.g. 100123456700003" };
}

const GSTIN_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const GSTIN = /^(\d{2})[A-Z]{5}\d{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/;

/**
 * The GSTIN's 15th character: over the first 14, weights 1, 2, 1, 2… from the left; each product in
 * base 36 adds its quotient and remainder; the check is what brings the sum to a multiple of 36.
 */
export function gstinCheckCharacter(first14: string): string {
  let sum = 0;
  for (let i = 0; i < 14; i++) {
    const product = GSTIN_ALPHABET.indexOf(first14.charAt(i)) * (i % 2 === 0 ? 1 : 2);
    sum += Math.floor(product / 36) + (product % 36);
  }
  return GSTIN_ALPHABET.charAt((36 - (sum % 36)) % 36);
}

/** State code (01–38), PAN (5 letters, 4 digits, 1 letter), entity number, 'Z', check character. */
function checkGstin(value: string): TaxIdCheck {
  const format = "Enter a valid GSTIN: 15 characters, e.g. 27AAPFU0939F1ZV";
  const match = GSTIN.exec(value);
  if (!match) return { ok: false, message: format };
  const state = Number(match[1]);
  if (state < 1 || state > 38) {
    return { ok: false, message: "Enter a valid GSTIN: it starts with a state code from 01 to 38" };
  }
  if (gstinCheckCharacter(value.slice(0, 14)) !== value.charAt(14)) {
    return { ok: false, message: "This GSTIN's last character does not match the rest: check it for a typo" };
  }
  return { ok: true, kind: "GSTIN", value };
}

/** An EU or UK VAT number, with or without its prefix; its format and check digits by jsvat. */
function checkVatNumber(country: string, value: string): TaxIdCheck {
  const prefix = vatPrefix(country);
  const rules = vatRules[country];
  if (!rules) return { ok: false, message: `No tax ID is asked for buyers in ${countryName(country)}.` };
  let candidate = value;
  if (country === "GR" && candidate.startsWith("GR")) candidate = `EL${candidate.slice(2)}`;
  const written = candidate.slice(0, 2);
  if (!candidate.startsWith(prefix)) {
    const other = /^[A-Z]{2}/.test(candidate) ? countryOfPrefix.get(written) : undefined;
    if (other) {
      return {
        ok: false,
        message: `This VAT number is from ${countryName(other)}, not ${countryName(country)}: choose that country or enter the ${countryName(country)} number`,
      };
    }
    // Austrian numbers are ATU + 8 digits; people often leave out both the prefix and the U.
    candidate = country === "AT" && /^\d{8}$/.test(candidate) ? `ATU${candidate}` : `${prefix}${candidate}`;
  }
  const result = checkVAT(candidate, [rules]);
  if (result.isValid && result.value) return { ok: true, kind: "VAT", value: result.value };
  return {
    ok: false,
    message: result.isValidFormat
      ? `This VAT number's check digits do not match: check it for a typo`
      : `Enter a valid VAT number for ${countryName(country)}: ${prefix} followed by the number`,
  };
}
