import { z } from "zod";
import { BANK_TRANSFER_METHOD } from "#domain/bank-transfer";
import type { PaymentMethod } from "#domain/checkout";

/**
 * Saved payment methods (decision 0027): what a buyer keeps on file for renewals, retries and upgrades.
 * A card is saved at Stripe and a PayPal account in PayPal's vault (both on the provider's own page; no
 * card data reaches our server); a bank transfer saves nothing at a provider: its renewals are invoiced
 * for payment by transfer.
 */
export const savedMethodKinds = ["card", "paypal", "bank_transfer"] as const;
export type SavedMethodKind = (typeof savedMethodKinds)[number];

/** The kinds saved on a provider's page (a bank transfer is added at once). */
export const providerMethodKinds = ["card", "paypal"] as const;
export type ProviderMethodKind = (typeof providerMethodKinds)[number];

/** Where the buyer goes back to after saving a method on the provider's page. */
export const setupReturns = ["wallet", "checkout", "subscriptions"] as const;

export const paymentMethodSetupInputSchema = z.object({
  kind: z.enum(providerMethodKinds, "Choose a card or PayPal"),
  returnTo: z.enum(setupReturns).default("wallet"),
});
export type PaymentMethodSetupInput = z.infer<typeof paymentMethodSetupInputSchema>;

/** One saved method, as its owner sees it. Never a full card number: only what the provider shows. */
export const savedPaymentMethodSchema = z.object({
  id: z.string(),
  kind: z.enum(savedMethodKinds),
  /** "Visa •••• 4242", "PayPal (j•••@example.com)", "Bank transfer". */
  label: z.string(),
  brand: z.string().nullable(),
  last4: z.string().nullable(),
  /** "08/2029" for a card. */
  expires: z.string().nullable(),
  isDefault: z.boolean(),
  /**
   * Why its last charge was refused for good (a lost card, a closed account): it is not charged again
   * until the buyer saves it again or chooses another. Null while it can be charged.
   */
  declined: z.string().nullable(),
  /** Live subscriptions that renew on it (chosen, or as the default). */
  subscriptions: z.number().int(),
  createdAt: z.string(),
});
export type SavedPaymentMethod = z.infer<typeof savedPaymentMethodSchema>;

export const paymentMethodListSchema = z.object({
  methods: z.array(savedPaymentMethodSchema),
  /** Whether card and PayPal setups run in test mode (the test provider's page stands for the provider's). */
  testMode: z.boolean(),
});
export type PaymentMethodList = z.infer<typeof paymentMethodListSchema>;

export const paymentMethodSetupStartedSchema = z.object({ redirectUrl: z.string() });

/** The return page's question: has the setup the buyer came back from saved a method yet? */
export const paymentMethodSetupStateSchema = z.object({
  state: z.enum(["pending", "saved", "failed", "cancelled"]),
  reason: z.string().nullable(),
  method: savedPaymentMethodSchema.nullable(),
});
export type PaymentMethodSetupState = z.infer<typeof paymentMethodSetupStateSchema>;

export const paymentMethodAnswerSchema = z.object({ method: savedPaymentMethodSchema });

/** A subscription's method: a saved one of its buyer's, or null to follow the buyer's default. */
export const subscriptionMethodInputSchema = z.object({
  paymentMethodId: z.uuid("Choose one of your payment methods").nullable(),
});
export type SubscriptionMethodInput = z.infer<typeof subscriptionMethodInputSchema>;

/** The checkout method a saved method pays through: what an order charged on it records. */
export function checkoutMethodOf(kind: SavedMethodKind): PaymentMethod {
  return kind === "card" ? "stripe" : kind === "paypal" ? "paypal" : BANK_TRANSFER_METHOD;
}

/** How a saved method is named on every screen and e-mail. */
export function methodLabel(method: {
  kind: SavedMethodKind;
  brand: string | null;
  last4: string | null;
  email: string | null;
}): string {
  if (method.kind === "bank_transfer") return "Bank transfer";
  if (method.kind === "paypal") return method.email ? `PayPal (${maskEmail(method.email)})` : "PayPal";
  const brand = brandNames[method.brand ?? ""] ?? "Card";
  return method.last4 ? `${brand} •••• ${method.last4}` : brand;
}

const brandNames: Record<string, string> = {
  visa: "Visa",
  mastercard: "Mastercard",
  amex: "American Express",
  discover: "Discover",
  diners: "Diners Club",
  jcb: "JCB",
  unionpay: "UnionPay",
  rupay: "RuPay",
};

/** "jane@example.com" → "j•••@example.com": enough to recognise one's own account, no more. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at < 1) return "•••";
  return `${email.slice(0, 1)}•••${email.slice(at)}`;
}

/** "08/2029" */
export function expiryLabel(month: number | null, year: number | null): string | null {
  if (!month || !year) return null;
  return `${String(month).padStart(2, "0")}/${year}`;
}

/**
 * The test provider's cards, standing in for Stripe's test cards: what each does when charged later.
 * The number's last four digits name it; the same card gives the same fingerprint for any buyer.
 */
export const testCards = [
  { last4: "4242", brand: "visa", outcome: "paid", label: "Visa 4242: every charge succeeds" },
  { last4: "4444", brand: "mastercard", outcome: "paid", label: "Mastercard 4444: every charge succeeds" },
  {
    last4: "0341",
    brand: "visa",
    outcome: "insufficient_funds",
    label: "Visa 0341: charges are declined (insufficient funds; retried)",
  },
  {
    last4: "9979",
    brand: "visa",
    outcome: "stolen_card",
    label: "Visa 9979: charges are declined (stolen card; not retried)",
  },
] as const;
export type TestCard = (typeof testCards)[number];
export const testCardNumbers = testCards.map((c) => c.last4) as [TestCard["last4"], ...TestCard["last4"][]];

/** The buyer's choice on the test provider's setup page. */
export const testSetupChoiceSchema = z.object({
  choice: z.enum(["save", "cancel"]),
  /** Which test card to save (cards only). */
  card: z.enum(testCardNumbers).optional(),
});
export type TestSetupChoice = z.infer<typeof testSetupChoiceSchema>;

/** What the test provider's setup page shows. */
export const testSetupSessionSchema = z.object({
  ref: z.string(),
  kind: z.enum(providerMethodKinds),
  state: z.enum(["pending", "saved", "cancelled"]),
});
export type TestSetupSession = z.infer<typeof testSetupSessionSchema>;

/**
 * Buyers in India are sent a pre-debit notice before each recurring card charge (the RBI's e-mandate
 * rule), and the charge waits at least this long after it.
 */
export const PRE_DEBIT_NOTICE_MS = 24 * 60 * 60 * 1000;

/** Whether a renewal charge needs India's pre-debit notice: a card, and a buyer billed in India. */
export function needsPreDebitNotice(kind: SavedMethodKind, billingCountry: string): boolean {
  return kind === "card" && billingCountry === "IN";
}

/** When a recurring charge may be made: its due date, and not before a day after its notice. */
export function chargeableAt(dueAt: Date, noticeAt: Date | null, needsNotice: boolean): Date | null {
  if (!needsNotice) return dueAt;
  if (!noticeAt) return null;
  return new Date(Math.max(dueAt.getTime(), noticeAt.getTime() + PRE_DEBIT_NOTICE_MS));
}
