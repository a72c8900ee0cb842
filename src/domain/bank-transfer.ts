import { z } from "zod";
import { MAX_ORDER_LINES, MAX_QUANTITY } from "#domain/checkout";
import { DAY_MS } from "#domain/dates";
import {
  chargeCents,
  formatUsd,
  fromUnits,
  MAX_TAX_RATE,
  MONEY_COLUMN_MAX,
  rateUnits,
  toUnits,
} from "#domain/money";
import { MAX_PRICE } from "#domain/product-admin";

/**
 * Paying by bank transfer: the buyer sends the order total with a reference we gave them; an admin
 * records each transfer that arrives, and these rules say how far the order is paid. Pure: the server
 * decides with them from the database, the admin pages show the same answers.
 */

/* ----------------------------------------------------------------------------------------------------
 * The transfer reference
 * ------------------------------------------------------------------------------------------------- */

/**
 * Crockford's base-32 digits: no I, L, O or U, so what a person reads off a bank statement cannot be
 * mistaken for another digit, and every character is accepted by bank reference fields (SEPA allows
 * only letters, digits and a little punctuation, which rules out Crockford's own `*~$=` check symbols).
 */
const DIGITS = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const REFERENCE_PREFIX = "SB";
const BODY_LENGTH = 8;

/**
 * x ∗ y = 2·(x ⊕ y) in GF(32) (reduced by x⁵ + x² + 1): a totally anti-symmetric quasigroup with a zero
 * diagonal, so Damm's check over it catches every single wrong character and every swap of two
 * neighbouring ones, the check character included, with a check symbol from the same 32 digits.
 */
function dammStep(interim: number, digit: number): number {
  const x = interim ^ digit;
  const doubled = x << 1;
  return doubled & 0b100000 ? (doubled ^ 0b100101) & 0b11111 : doubled;
}

function dammCheck(digits: readonly number[]): number {
  return digits.reduce(dammStep, 0);
}

/** A 53-bit string hash (cyrb53); the order id is random already, this only spreads it over 40 bits. */
function hash53(text: string, seed: number): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/**
 * The reference a buyer writes on a bank transfer for an order: `SB-` and 8 base-32 characters derived
 * from the order id (40 bits), then a check character, e.g. `SB-7K3M9QX2Z`.
 *
 * Forty bits keep it short enough to type; they cannot make it unique by themselves (among 100,000
 * orders two share a reference with a chance of about 1 in 200), so the reference is stored in a unique
 * column and, on the rare conflict, the next `attempt` gives the same order another reference.
 */
export function transferReference(orderId: string, attempt = 0): string {
  let value = hash53(orderId, attempt) % 2 ** (5 * BODY_LENGTH);
  const digits: number[] = [];
  for (let i = 0; i < BODY_LENGTH; i++) {
    digits.unshift(value % 32);
    value = Math.floor(value / 32);
  }
  digits.push(dammCheck(digits));
  return `${REFERENCE_PREFIX}-${digits.map((d) => DIGITS[d]).join("")}`;
}

/** What people type for a digit they misread: Crockford's own decoding rules. */
const LOOKALIKES: Record<string, string> = { O: "0", I: "1", L: "1" };

/**
 * The reference in `text`, as `transferReference` writes it, or null when it is not one: the buyer's or
 * the bank's spelling is forgiven (case, spaces, dashes, O for 0, I or L for 1, with or without `SB`),
 * a wrong or swapped character is not (the check character refuses it).
 */
export function parseTransferReference(text: string): string | null {
  const compact = text.toUpperCase().replace(/[\s\-–—_.]/g, "");
  const withoutPrefix =
    compact.length === REFERENCE_PREFIX.length + BODY_LENGTH + 1 && compact.startsWith(REFERENCE_PREFIX)
      ? compact.slice(REFERENCE_PREFIX.length)
      : compact;
  if (withoutPrefix.length !== BODY_LENGTH + 1) return null;
  const digits: number[] = [];
  for (const char of withoutPrefix) {
    const digit = DIGITS.indexOf(LOOKALIKES[char] ?? char);
    if (digit < 0) return null;
    digits.push(digit);
  }
  if (dammCheck(digits) !== 0) return null;
  return `${REFERENCE_PREFIX}-${digits.map((d) => DIGITS[d]).join("")}`;
}

/* ----------------------------------------------------------------------------------------------------
 * How far an order is paid
 * ------------------------------------------------------------------------------------------------- */

export type TransferStatus = "awaiting" | "partial" | "paid" | "overpaid";

export type TransferStanding = {
  status: TransferStatus;
  /** Decimal strings with four places, as the repository stores money. */
  receivedTotal: string;
  outstanding: string;
  excess: string;
  /** One sentence for the buyer's order page and the admin's record form. */
  explanation: string;
};

/**
 * What the buyer is asked to transfer for an order total: whole cents, rounded as every provider charge
 * is (`chargeCents`), since a bank cannot move a fraction of a cent.
 */
export function transferAmountDue(total: string): string {
  return fromUnits(chargeCents(total) * 100);
}

const dollars = (units: number) => formatUsd(Number(fromUnits(units)));

/**
 * Adds up the transfers received for an order against its total (decimal strings, as stored). Every
 * transfer is money that arrived, so a negative one is a caller's mistake and is refused.
 */
export function applyTransfers(total: string, received: readonly string[]): TransferStanding {
  const dueUnits = toUnits(transferAmountDue(total));
  let receivedUnits = 0;
  for (const amount of received) {
    const units = toUnits(amount);
    if (units < 0) throw new RangeError(`A received transfer cannot be negative: ${amount}`);
    receivedUnits += units;
  }
  const outstanding = Math.max(0, dueUnits - receivedUnits);
  const excess = Math.max(0, receivedUnits - dueUnits);
  const standing = {
    receivedTotal: fromUnits(receivedUnits),
    outstanding: fromUnits(outstanding),
    excess: fromUnits(excess),
  };
  if (excess > 0)
    return {
      status: "overpaid",
      ...standing,
      explanation: `Paid in full; ${dollars(excess)} more than due will be returned to the sender.`,
    };
  if (outstanding === 0) return { status: "paid", ...standing, explanation: "Paid in full." };
  if (receivedUnits === 0)
    return {
      status: "awaiting",
      ...standing,
      explanation: `No transfer received yet; ${dollars(outstanding)} to pay.`,
    };
  return {
    status: "partial",
    ...standing,
    explanation: `${dollars(receivedUnits)} of ${dollars(dueUnits)} received; ${dollars(outstanding)} still to pay.`,
  };
}

/* ----------------------------------------------------------------------------------------------------
 * How long an order waits for its transfer
 * ------------------------------------------------------------------------------------------------- */

/** The moment an unpaid bank-transfer order placed at `placedAt` lapses, `days` whole days later. */
export function transferExpiresAt(placedAt: Date, days: number): Date {
  return new Date(placedAt.getTime() + days * DAY_MS);
}

export function isTransferExpired(placedAt: Date, days: number, now: Date): boolean {
  return now.getTime() >= transferExpiresAt(placedAt, days).getTime();
}

/* ----------------------------------------------------------------------------------------------------
 * The admin's "record a received transfer" form
 * ------------------------------------------------------------------------------------------------- */

/**
 * The largest order's total (every line at the highest price and quantity, with tax at the highest rate a jurisdiction may have): no single transfer
 * for one order is larger, so a bigger number is a typo. Kept within the money column either way.
 */
export const MAX_TRANSFER_AMOUNT = fromUnits(
  Math.min(
    Math.round(
      (toUnits(MAX_PRICE) * MAX_QUANTITY * MAX_ORDER_LINES * (10_000 + rateUnits(MAX_TAX_RATE))) / 10_000,
    ),
    toUnits(MONEY_COLUMN_MAX),
  ),
);
export const MAX_BANK_REFERENCE_LENGTH = 64;

/**
 * Transfers arrive on calendar days. A date typed by an admin east of Greenwich can be "tomorrow" in
 * UTC, so the latest day allowed is today's date where it is latest (UTC+14).
 */
const LATEST_TIME_ZONE_MS = 14 * 3_600_000;
const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

function isCalendarDay(text: string): boolean {
  const match = ISO_DAY.exec(text);
  if (!match) return false;
  const day = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === text;
}

/** Form inputs give text, JSON may give a number; both are read as the text a person would have typed. */
const asText = (value: unknown) => (typeof value === "number" ? String(value) : value);

/** The first thing wrong with a typed amount, in the words the form shows, or null when it is fine. */
function amountProblem(text: string): string | null {
  if (text === "") return "Enter the amount received";
  if (!/^\d+(\.\d+)?$/.test(text)) return "Enter the amount as a number, like 120.50";
  if (!/^\d+(\.\d{1,2})?$/.test(text)) return "Banks send whole cents: use at most 2 decimals";
  const units = toUnits(text);
  if (units <= 0) return "The amount must be more than $0.00";
  if (units > toUnits(MAX_TRANSFER_AMOUNT))
    return `The amount must be at most ${formatUsd(Number(MAX_TRANSFER_AMOUNT))}; check the number of digits`;
  return null;
}

const amountField = z.preprocess(
  asText,
  z
    .string({ error: "Enter the amount received" })
    .trim()
    .superRefine((text, ctx) => {
      const problem = amountProblem(text);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    })
    .transform((text) => fromUnits(toUnits(text))),
);

const bankReferenceField = z
  .string({ error: "Enter the bank's reference for this transfer" })
  .trim()
  .min(1, { error: "Enter the bank's reference for this transfer", abort: true })
  .max(
    MAX_BANK_REFERENCE_LENGTH,
    `The bank reference must be at most ${MAX_BANK_REFERENCE_LENGTH} characters`,
  )
  .regex(/^[^\p{C}]+$/u, "The bank reference can only hold characters you can see (no control characters)");

/**
 * The form's schema for the moment `now` (the browser's clock in the form, the server's on the API),
 * since "not in the future" depends on it. Amount comes back as a 4-place decimal string, the day as
 * `YYYY-MM-DD` (what a date input gives).
 */
export function recordTransferSchemaAt(now: Date) {
  const latestDay = new Date(now.getTime() + LATEST_TIME_ZONE_MS).toISOString().slice(0, 10);
  return z.object({
    amount: amountField,
    receivedOn: z
      .string({ error: "Enter the day the transfer arrived" })
      .trim()
      .min(1, { error: "Enter the day the transfer arrived", abort: true })
      .refine(isCalendarDay, "Enter the day as YYYY-MM-DD, like 2026-11-23")
      // ISO days compare as text.
      .refine(
        (day) => !isCalendarDay(day) || day <= latestDay,
        "The day the transfer arrived cannot be in the future",
      ),
    bankReference: bankReferenceField,
  });
}
export type RecordTransferInput = z.input<ReturnType<typeof recordTransferSchemaAt>>;
export type RecordedTransfer = z.output<ReturnType<typeof recordTransferSchemaAt>>;

/* ----------------------------------------------------------------------------------------------------
 * What the API answers about a bank-transfer order
 * ------------------------------------------------------------------------------------------------- */

/** The checkout method that pays by bank transfer. */
export const BANK_TRANSFER_METHOD = "bank-transfer";
/** Days a bank-transfer order waits for its money before it expires (BANK_TRANSFER_EXPIRY_DAYS). */
export const DEFAULT_BANK_TRANSFER_EXPIRY_DAYS = 7;

/** The operator's account the buyer pays into; `demo` when none is configured (test mode). */
export const bankDetailsSchema = z.object({
  accountName: z.string(),
  bankName: z.string(),
  iban: z.string(),
  swift: z.string(),
  /** India's domestic details, when the operator has an Indian account. */
  accountNumber: z.string().nullable(),
  ifsc: z.string().nullable(),
  demo: z.boolean(),
});
export type BankDetails = z.infer<typeof bankDetailsSchema>;

export const transferStandingSchema = z.object({
  status: z.enum(["awaiting", "partial", "paid", "overpaid"]),
  receivedTotal: z.string(),
  outstanding: z.string(),
  excess: z.string(),
  explanation: z.string(),
});

/**
 * A bank-transfer order's instructions and how far it is paid, as its buyer sees them. Amounts are
 * 4-place decimal strings (USD), `dueAt` an ISO datetime; `expired` once the due date passed unpaid.
 */
export const bankTransferSchema = z.object({
  orderId: z.string(),
  reference: z.string(),
  amountDue: z.string(),
  dueAt: z.string(),
  expired: z.boolean(),
  paymentStatus: z.string(),
  details: bankDetailsSchema,
  standing: transferStandingSchema,
});
export type BankTransfer = z.infer<typeof bankTransferSchema>;

/** One transfer an admin recorded as received. */
export const receivedTransferSchema = z.object({
  id: z.string(),
  amount: z.string(),
  receivedOn: z.string(),
  bankReference: z.string(),
  recordedAt: z.string(),
  recordedBy: z.string().nullable(),
});
export type ReceivedTransfer = z.infer<typeof receivedTransferSchema>;

/** The admin's view: the buyer's view, the account it belongs to and every transfer recorded. */
export const adminBankTransferSchema = bankTransferSchema.extend({
  accountEmail: z.string(),
  totalAmount: z.string(),
  transfers: z.array(receivedTransferSchema),
});
export type AdminBankTransfer = z.infer<typeof adminBankTransferSchema>;

/**
 * `recorded` is false when the same bank reference was already recorded for this order (a repeated
 * submit changes nothing); `delivered` when this transfer completed the payment and confirmed the order.
 */
export const recordTransferAnswerSchema = z.object({
  recorded: z.boolean(),
  delivered: z.boolean(),
  transfer: adminBankTransferSchema,
});
export type RecordTransferAnswer = z.infer<typeof recordTransferAnswerSchema>;

/** The admin's search by transfer reference: whatever `parseTransferReference` forgives. */
export const transferReferenceQuerySchema = z.object({
  reference: z
    .string({ error: "Enter a transfer reference, like SB-7K3M9QX2Z" })
    .max(40, "Enter a transfer reference, like SB-7K3M9QX2Z")
    .transform((text, ctx) => {
      const reference = parseTransferReference(text);
      if (reference) return reference;
      ctx.addIssue({
        code: "custom",
        message: "This is not a Stackbay transfer reference; check it against the bank statement",
      });
      return z.NEVER;
    }),
});

/** The one line the buyer acts on: how much, to whom, with which reference. */
export function transferInstruction(
  amount: string,
  details: Pick<BankDetails, "accountName">,
  reference: string,
) {
  return `Transfer ${formatUsd(Number(amount))} to ${details.accountName} with reference ${reference}.`;
}
