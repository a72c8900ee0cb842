import { electronicFormatIBAN, getCountrySpecifications, isValidBIC, isValidIBAN } from "ibantools";
import { z } from "zod";
import { isCountryCode } from "#domain/countries";

/**
 * Where a seller or reseller is paid: a Stripe connected account (Stripe Connect Express) or a bank
 * account the operator transfers to. One contract for the form and the server; the server keeps the
 * bank details sealed and only ever answers their masked form.
 */

export const payoutMethods = ["stripe", "bank"] as const;
export type PayoutMethod = (typeof payoutMethods)[number];
export const payoutMethodLabel: Record<PayoutMethod, string> = {
  stripe: "Stripe",
  bank: "Bank transfer",
};

export const stripeAccountStatuses = ["onboarding", "enabled", "restricted"] as const;
export type StripeAccountStatus = (typeof stripeAccountStatuses)[number];

export const stripeStatusLabels: Record<StripeAccountStatus, string> = {
  onboarding: "Onboarding not finished",
  enabled: "Enabled",
  restricted: "Restricted",
};

/** India pays into an account number with the branch's IFSC, not a SWIFT/BIC. */
export const IFSC_COUNTRY = "IN";
const IFSC_PATTERN = /^[A-Z]{4}0[A-Z0-9]{6}$/;

/** Countries whose banks are reached by IBAN (the IBAN registry's members). */
export function usesIban(country: string): boolean {
  return getCountrySpecifications()[country]?.IBANRegistry === true;
}

export function usesIfsc(country: string): boolean {
  return country === IFSC_COUNTRY;
}

export function isIfsc(code: string): boolean {
  return IFSC_PATTERN.test(code);
}

/** Spaces and dashes people type between groups go; letters are compared upper case. */
const compact = (value: string) => value.replace(/[\s-]/g, "").toUpperCase();

/** Optional, and null accepted too, so what the schema answers can be sent through it again. */
const optionalCode = z
  .string()
  .max(64)
  .transform(compact)
  .nullish()
  .transform((value) => (value ? value : undefined));

/**
 * A bank account as entered: holder, the bank's country, an IBAN (IBAN countries) or an account number
 * (the others), and a SWIFT/BIC, or for India the IFSC. Which fields apply follows the country; the
 * ones that do not are dropped, so what is stored is exactly what the country needs.
 */
export const bankAccountSchema = z
  .object({
    holderName: z
      .string()
      .trim()
      .min(2, "Enter the account holder's name as the bank knows it")
      .max(140, "The holder's name can be at most 140 characters"),
    country: z.string().trim().toUpperCase().refine(isCountryCode, "Choose the country of the bank"),
    iban: optionalCode,
    accountNumber: optionalCode,
    swift: optionalCode,
    ifsc: optionalCode,
  })
  .superRefine((account, ctx) => {
    const { country } = account;
    if (!isCountryCode(country)) return;
    if (usesIban(country)) {
      if (!account.iban)
        ctx.addIssue({ code: "custom", path: ["iban"], message: "Enter the account's IBAN" });
      else if (!isValidIBAN(electronicFormatIBAN(account.iban) ?? ""))
        ctx.addIssue({
          code: "custom",
          path: ["iban"],
          message: "This IBAN is not valid: check the country code, check digits and account number",
        });
      else if (!account.iban.startsWith(country))
        ctx.addIssue({
          code: "custom",
          path: ["iban"],
          message: `This IBAN belongs to another country than the bank's (${country})`,
        });
    } else if (!account.accountNumber) {
      ctx.addIssue({ code: "custom", path: ["accountNumber"], message: "Enter the account number" });
    } else if (!/^[A-Z0-9]{4,34}$/.test(account.accountNumber)) {
      ctx.addIssue({
        code: "custom",
        path: ["accountNumber"],
        message: "An account number has 4 to 34 letters and digits",
      });
    }
    if (usesIfsc(country)) {
      if (!account.ifsc)
        ctx.addIssue({ code: "custom", path: ["ifsc"], message: "Enter the branch's IFSC code" });
      else if (!isIfsc(account.ifsc))
        ctx.addIssue({
          code: "custom",
          path: ["ifsc"],
          message: "An IFSC code is 4 letters, a zero and 6 letters or digits (e.g. HDFC0001234)",
        });
    } else if (!account.swift) {
      ctx.addIssue({ code: "custom", path: ["swift"], message: "Enter the bank's SWIFT/BIC code" });
    } else if (!isValidBIC(account.swift)) {
      ctx.addIssue({
        code: "custom",
        path: ["swift"],
        message: "A SWIFT/BIC code has 8 or 11 characters (e.g. DEUTDEFF or DEUTDEFF500)",
      });
    }
  })
  .transform(({ holderName, country, iban, accountNumber, swift, ifsc }) => {
    const byIban = usesIban(country);
    const byIfsc = usesIfsc(country);
    return {
      holderName,
      country,
      iban: byIban ? (iban ?? null) : null,
      accountNumber: byIban ? null : (accountNumber ?? null),
      swift: byIfsc ? null : (swift ?? null),
      ifsc: byIfsc ? (ifsc ?? null) : null,
    };
  });
export type BankAccountInput = z.input<typeof bankAccountSchema>;
export type BankAccount = z.output<typeof bankAccountSchema>;

/** `•••• 3000`: the last four characters of an account number or IBAN, the only part ever shown. */
export function maskAccount(number: string): string {
  const plain = compact(number);
  return `•••• ${plain.slice(-4)}`;
}

/**
 * When payouts to details changed at `changedAt` may start: a stolen session that sends the money
 * elsewhere gets no payout before the owner, e-mailed at once, can react (PAYOUT_COOLING_OFF_HOURS).
 */
export function payoutHoldEnds(changedAt: Date, coolingOffHours: number): Date {
  return new Date(changedAt.getTime() + coolingOffHours * 3_600_000);
}

/** The account's number as it is masked: the IBAN where there is one, else the account number. */
export function maskBankAccount(account: Pick<BankAccount, "iban" | "accountNumber">): string {
  return maskAccount(account.iban ?? account.accountNumber ?? "");
}

/** What Stripe reports about a connected account (`account.updated`), reduced to what we act on. */
export type ConnectAccountReport = {
  payoutsEnabled: boolean;
  detailsSubmitted: boolean;
  /** `requirements.currently_due`: what the account holder still has to give Stripe. */
  currentlyDue: string[];
};

/** Enabled once Stripe pays out to it and has every detail; restricted, with what is due, otherwise. */
export function accountStatusOf(report: ConnectAccountReport): {
  status: StripeAccountStatus;
  requirements: string[];
} {
  if (report.payoutsEnabled && report.detailsSubmitted) return { status: "enabled", requirements: [] };
  return { status: "restricted", requirements: [...report.currentlyDue] };
}

export const payoutAccountSchema = z.discriminatedUnion("method", [
  z.object({
    method: z.literal("stripe"),
    status: z.enum(stripeAccountStatuses),
    /** What Stripe still needs from the account holder (its `requirements.currently_due`). */
    requirements: z.array(z.string()),
    updatedAt: z.iso.datetime(),
  }),
  z.object({
    method: z.literal("bank"),
    country: z.string(),
    /** `•••• 3000`; the full number never leaves the server. */
    masked: z.string(),
    updatedAt: z.iso.datetime(),
  }),
]);
export type PayoutAccount = z.infer<typeof payoutAccountSchema>;

export const payoutAccountAnswerSchema = z.object({ account: payoutAccountSchema.nullable() });
export type PayoutAccountAnswer = z.infer<typeof payoutAccountAnswerSchema>;

export const onboardingAnswerSchema = z.object({ url: z.url() });
export type OnboardingAnswer = z.infer<typeof onboardingAnswerSchema>;

/** Test mode's hosted Connect onboarding page: finish it, or leave it with details still due. */
export const testOnboardingChoices = ["complete", "incomplete"] as const;
export type TestOnboardingChoice = (typeof testOnboardingChoices)[number];
export const testOnboardingChoiceSchema = z.object({
  choice: z.enum(testOnboardingChoices, { error: "Choose complete or incomplete" }),
});

export const testConnectAccountSchema = z.object({
  accountId: z.string(),
  status: z.enum(stripeAccountStatuses),
});
export type TestConnectAccount = z.infer<typeof testConnectAccountSchema>;

/**
 * Connecting Stripe: the country the account is opened in (Stripe keeps it for good), needed only when
 * a new account is opened; continuing an account's onboarding needs nothing.
 */
export const startOnboardingSchema = z.object({
  country: z
    .string()
    .trim()
    .toUpperCase()
    .refine(isCountryCode, "Choose the country you live in or your business is registered in")
    .optional(),
});
export type StartOnboardingInput = z.input<typeof startOnboardingSchema>;
