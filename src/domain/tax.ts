import { z } from "zod";
import { countryName } from "#domain/countries";
import { formatRatePercent, rateUnits } from "#domain/money";
import { EU_MEMBER_STATES, isEuMemberState, type TaxIdKind, taxIdKinds } from "#domain/tax-ids";

/**
 * Stackbay FZCO (UAE) is the merchant of record: it charges the buyer and remits the tax of the buyer's
 * jurisdiction. These are the standard rates in force for consumers (as of November 2026); an admin
 * may override one (the tax_rates table), and `decideTax` always receives the effective list.
 */
const euStandardRates: Record<string, string> = {
  AT: "0.2000",
  BE: "0.2100",
  BG: "0.2000",
  HR: "0.2500",
  CY: "0.1900",
  CZ: "0.2100",
  DK: "0.2500",
  EE: "0.2400",
  FI: "0.2550",
  FR: "0.2000",
  DE: "0.1900",
  GR: "0.2400",
  HU: "0.2700",
  IE: "0.2300",
  IT: "0.2200",
  LV: "0.2100",
  LT: "0.2100",
  LU: "0.1700",
  MT: "0.1800",
  NL: "0.2100",
  PL: "0.2300",
  PT: "0.2300",
  RO: "0.2100",
  SK: "0.2300",
  SI: "0.2200",
  ES: "0.2100",
  SE: "0.2500",
};

export type TaxJurisdiction = { jurisdiction: string; label: string; defaultRate: string };

export const taxJurisdictions: readonly TaxJurisdiction[] = [
  { jurisdiction: "AE", label: "UAE VAT", defaultRate: "0.0500" },
  { jurisdiction: "IN", label: "India GST", defaultRate: "0.1800" },
  ...EU_MEMBER_STATES.map((code) => ({
    jurisdiction: code,
    label: `${countryName(code)} VAT`,
    defaultRate: euStandardRates[code] ?? "0",
  })).sort((a, b) => a.label.localeCompare(b.label, "en")),
  { jurisdiction: "GB", label: "UK VAT", defaultRate: "0.2000" },
];

export function findTaxJurisdiction(code: string): TaxJurisdiction | undefined {
  return taxJurisdictions.find((j) => j.jurisdiction === code);
}

/** A jurisdiction's rate in force: an admin's override, or the default above. Public (checkout). */
export const effectiveTaxRateSchema = z.object({
  jurisdiction: z.string(),
  label: z.string(),
  rate: z.string(),
});
export type EffectiveTaxRate = z.infer<typeof effectiveTaxRateSchema>;
/** The public tax facts: the rates in force, and the operator's registration its invoices print. */
export const effectiveTaxRatesSchema = z.object({
  items: z.array(effectiveTaxRateSchema),
  operatorTrn: z.string(),
});
export type TaxFacts = z.infer<typeof effectiveTaxRatesSchema>;

/** The admin screen's row: the effective rate, the default and who changed it last. */
export const adminTaxRateSchema = effectiveTaxRateSchema.extend({
  defaultRate: z.string(),
  /** Null while the default applies. */
  updatedAt: z.string().nullable(),
  updatedBy: z.string().nullable(),
});
export type AdminTaxRate = z.infer<typeof adminTaxRateSchema>;
export const adminTaxRatesSchema = z.object({ items: z.array(adminTaxRateSchema) });

export const taxJurisdictionParams = z.object({
  jurisdiction: z
    .string()
    .refine((code) => findTaxJurisdiction(code) !== undefined, "Unknown tax jurisdiction"),
});

const PERCENT = /^\d{1,2}(\.\d{1,2})?$/;
export const MAX_TAX_PERCENT = 50;

/** An admin's new rate, in percent as people type it ("18", "25.5"): 0 to 50, at most 2 decimals. */
export const taxRateInputSchema = z.object({
  ratePercent: z
    .string({ error: "Enter a rate in percent" })
    .trim()
    .refine(
      (text) => PERCENT.test(text) && Number(text) <= MAX_TAX_PERCENT,
      `Enter a rate from 0 to ${MAX_TAX_PERCENT}%, with at most 2 decimals`,
    ),
});
export type TaxRateInput = z.input<typeof taxRateInputSchema>;

/** "25.5" (percent) as the stored rate "0.2550", exactly. */
export function percentToRate(percent: string): string {
  const [whole = "0", fraction = ""] = percent.trim().split(".");
  const units = Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
  return `${Math.trunc(units / 10_000)}.${String(units % 10_000).padStart(4, "0")}`;
}

/** "0.2550" as "25.5", for the admin's edit field. */
export function rateToPercent(rate: string): string {
  return formatRatePercent(rate).replace("%", "");
}

/** The list `decideTax` needs: each jurisdiction's default, replaced by an override where there is one. */
export function effectiveTaxRates(
  overrides: readonly { jurisdiction: string; rate: string }[],
): EffectiveTaxRate[] {
  return taxJurisdictions.map(({ jurisdiction, label, defaultRate }) => {
    const override = overrides.find((o) => o.jurisdiction === jurisdiction);
    return { jurisdiction, label, rate: override ? normaliseRate(override.rate) : defaultRate };
  });
}

/** Any decimal rate ("0.18", "0.180000") as four decimals ("0.1800"). */
export function normaliseRate(rate: string): string {
  const trimmed = rate.includes(".") ? rate.replace(/0+$/, "").replace(/\.$/, "") : rate;
  const units = rateUnits(trimmed);
  return `${Math.trunc(units / 10_000)}.${String(units % 10_000).padStart(4, "0")}`;
}

export const taxBusinessSchema = z.object({
  company: z.string(),
  taxId: z.string(),
  kind: z.enum(taxIdKinds),
});
export type TaxBusiness = { company: string; taxId: string; kind: TaxIdKind };

export type TaxDecision = {
  /** Whose tax it is (ISO code); null when none is due. */
  jurisdiction: string | null;
  label: string;
  /** Four decimals, "0.1800". */
  rate: string;
  reverseCharge: boolean;
  /** Printed under the tax line. */
  note: string | null;
};

/**
 * What the tax authority's register said about a business buyer's VAT number: VIES (the European
 * Commission's, for EU numbers) or HMRC's (UK numbers). Only `valid` earns the reverse charge; every
 * other answer charges VAT, which the buyer can reclaim later, never the reverse.
 *
 * - `valid`: the register confirms the number; `reference` is its consultation number when it gives one.
 * - `invalid`: the register answered that the number is not registered for VAT.
 * - `unavailable`: the register could not be asked or did not answer (down, timed out, busy).
 * - `unchecked`: this site cannot ask the register (HMRC's API needs credentials it was not given).
 */
export const vatCheckStatuses = ["valid", "invalid", "unavailable", "unchecked"] as const;
export type VatCheckStatus = (typeof vatCheckStatuses)[number];
export const vatRegisters = ["VIES", "HMRC"] as const;
export type VatRegister = (typeof vatRegisters)[number];

export const vatCheckSchema = z.object({
  register: z.enum(vatRegisters),
  status: z.enum(vatCheckStatuses),
  /** The register's consultation number (VIES requestIdentifier, HMRC consultationNumber), if any. */
  reference: z.string().nullable(),
  /** When the register answered (ISO), or when the check was made if it did not. */
  checkedAt: z.string(),
});
export type VatCheck = z.infer<typeof vatCheckSchema>;

/** The checkout's question: what the register says about this VAT number now. */
export const vatCheckBodySchema = z.object({
  country: z
    .string()
    .trim()
    .regex(/^[A-Z]{2}$/, "Select your country"),
  taxId: z.string().trim().min(1, "Enter your VAT number").max(40, "That tax ID is too long"),
});
/** `check` is null for a number that is not well-formed (the form says what is wrong with it). */
export const vatCheckAnswerSchema = z.object({
  vatNumber: z.string().nullable(),
  check: vatCheckSchema.nullable(),
});
export type VatCheckAnswer = z.infer<typeof vatCheckAnswerSchema>;

/** The register a VAT number of `country` is checked with: HMRC for the UK, VIES for the EU. */
export function vatRegisterFor(country: string): VatRegister {
  return country === "GB" ? "HMRC" : "VIES";
}

const RECLAIM =
  "If your company is registered for VAT, you can reclaim this VAT from us afterwards: write to support with the invoice.";

/** Printed under the tax line when a business gave a VAT number and VAT was charged all the same. */
export function vatChargedNote(check: Pick<VatCheck, "register" | "status"> | null): string {
  const register = check?.register === "HMRC" ? "HMRC" : "VIES";
  switch (check?.status) {
    case "invalid":
      return `VAT charged: ${register} does not list this VAT number as registered. ${RECLAIM}`;
    case "unchecked":
      return `VAT charged: UK VAT numbers cannot be checked with HMRC at the moment, so this one is unverified. ${RECLAIM}`;
    default:
      return `VAT charged: ${register} could not confirm this VAT number just now. ${RECLAIM}`;
  }
}

/** The invoice's line under a VAT number: what its register said at checkout, when, and its reference. */
export function vatCheckLine(check: VatCheck): string {
  const on = check.checkedAt.slice(0, 10);
  switch (check.status) {
    case "valid":
      return check.reference
        ? `Confirmed by ${check.register} on ${on}, consultation number ${check.reference}`
        : `Confirmed by ${check.register} on ${on}`;
    case "invalid":
      return `Not confirmed: ${check.register} did not list it on ${on}`;
    case "unavailable":
      return `Not confirmed: ${check.register} could not be reached on ${on}`;
    case "unchecked":
      return `Not confirmed: ${check.register} could not be asked on ${on}`;
  }
}

export const EU_REVERSE_CHARGE_NOTE =
  "Reverse charge: VAT to be accounted for by the recipient (Article 196, Council Directive 2006/112/EC)";
export const UK_REVERSE_CHARGE_NOTE = "Reverse charge: customer to account for VAT to HMRC";
export const OUT_OF_SCOPE_NOTE =
  "No tax charged: the buyer is outside the UAE, India, the EU and the UK, where Stackbay charges tax.";

/**
 * The tax on an order, from the buyer's country and, for a business, its tax ID. UAE and India tax every
 * buyer (a GSTIN is only printed); an EU or UK business whose VAT number the register confirmed
 * (`vatCheck` valid) accounts for the VAT itself (reverse charge); a VAT number the register did not
 * confirm, for whatever reason, is charged VAT with a note saying why and how to reclaim it; elsewhere
 * no tax is charged.
 */
export function decideTax(
  buyer: { country: string; business: TaxBusiness | null },
  rates: readonly EffectiveTaxRate[],
  vatCheck: Pick<VatCheck, "register" | "status"> | null,
): TaxDecision {
  const { country, business } = buyer;
  const jurisdiction = findTaxJurisdiction(country);
  if (!jurisdiction) {
    return {
      jurisdiction: null,
      label: "No tax",
      rate: "0.0000",
      reverseCharge: false,
      note: OUT_OF_SCOPE_NOTE,
    };
  }
  const isEu = isEuMemberState(country);
  const vatBusiness = (isEu || country === "GB") && business?.kind === "VAT";
  if (vatBusiness && vatCheck?.status === "valid") {
    return {
      jurisdiction: country,
      label: "Reverse charge",
      rate: "0.0000",
      reverseCharge: true,
      note: isEu ? EU_REVERSE_CHARGE_NOTE : UK_REVERSE_CHARGE_NOTE,
    };
  }
  const rate = rates.find((r) => r.jurisdiction === country)?.rate ?? jurisdiction.defaultRate;
  return {
    jurisdiction: country,
    label: jurisdiction.label,
    rate: normaliseRate(rate),
    reverseCharge: false,
    note: vatBusiness ? vatChargedNote(vatCheck) : null,
  };
}

/** The summary's and invoice's tax line: "India GST (18%)", or "Reverse charge". */
export function taxLineLabel(decision: { label: string; rate: string; reverseCharge: boolean }): string {
  if (decision.reverseCharge) return "Reverse charge";
  return `${decision.label} (${formatRatePercent(decision.rate)})`;
}
