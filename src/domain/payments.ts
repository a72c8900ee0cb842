import { z } from "zod";
import { type PaymentMethod, paymentMethods } from "#domain/checkout";

/**
 * The providers a payment can go through; `test` is the built-in test mode that takes no money, `bank`
 * is a bank transfer to the operator's own account (recorded by an admin, no provider involved).
 */
export const paymentProviderNames = ["test", "stripe", "paypal", "bank"] as const;
export type PaymentProviderName = (typeof paymentProviderNames)[number];

/** What a payment attempt can be: the provider's answer decides, the expiry only ends a pending one. */
export const paymentAttemptStates = ["pending", "paid", "failed", "cancelled", "expired"] as const;
export type PaymentAttemptState = (typeof paymentAttemptStates)[number];

export { TEST_MODE_LABEL } from "#domain/test-mode";

/** `GET /api/payments/config`: which methods checkout offers and whether any of them takes no money. */
export const paymentsConfigSchema = z.object({
  testMode: z.boolean(),
  methods: z.array(
    z.object({
      method: z.enum(paymentMethods.map((m) => m.value) as [PaymentMethod, ...PaymentMethod[]]),
      provider: z.enum(paymentProviderNames),
    }),
  ),
});
export type PaymentsConfig = z.infer<typeof paymentsConfigSchema>;

/**
 * Placing an order (or trying its payment again) answers where to send the browser: the provider's
 * hosted page, or our return page when the order needs no payment any more.
 */
export const paymentRedirectSchema = z.object({ orderId: z.string(), redirectUrl: z.string() });
export type PaymentRedirect = z.infer<typeof paymentRedirectSchema>;

/** The order's latest payment attempt, as its buyer sees it on the return page. */
export const orderPaymentSchema = z.object({
  attempt: z.number(),
  provider: z.enum(paymentProviderNames),
  state: z.enum(paymentAttemptStates),
  reason: z.string().nullable(),
});
export type OrderPayment = z.infer<typeof orderPaymentSchema>;

/** The return page's question: what the provider says now, and the order as that answer left it. */
export const orderPaymentAnswerSchema = z.object({
  orderId: z.string(),
  paymentStatus: z.string(),
  /** The method the buyer chose at checkout: what a decline is worded after. */
  method: z.enum(paymentMethods.map((m) => m.value) as [PaymentMethod, ...PaymentMethod[]]),
  payment: orderPaymentSchema.nullable(),
});
export type OrderPaymentAnswer = z.infer<typeof orderPaymentAnswerSchema>;

/** What the provider added to the return URL (PayPal's `token`, Stripe's session id); strings only. */
export const completePaymentBodySchema = z.object({
  query: z.record(z.string().max(100), z.string().max(500)).default({}),
});

/** The hosted test page's view of its session. */
export const testPaymentSessionSchema = z.object({
  ref: z.string(),
  amountCents: z.number(),
  description: z.string(),
  state: z.enum(["pending", "paid", "failed", "cancelled"]),
});
export type TestPaymentSession = z.infer<typeof testPaymentSessionSchema>;

export const testPaymentChoices = ["pay", "decline", "cancel"] as const;
export type TestPaymentChoice = (typeof testPaymentChoices)[number];
export const testPaymentChoiceSchema = z.object({
  choice: z.enum(testPaymentChoices, { error: "Choose pay, decline or cancel" }),
});

/** Where the browser goes next, after a choice on the hosted test page. */
export const redirectAnswerSchema = z.object({ redirectUrl: z.string() });

/**
 * What a failed payment means to the buyer, by the method they chose (a PayPal decline is not a
 * card's): the one place these words are declared. A bank transfer fails only by not arriving in time.
 */
export const paymentDeclines: Record<PaymentMethod, string> = {
  stripe: "Your card was declined.",
  "apple-pay": "Apple Pay declined the payment.",
  paypal: "PayPal declined the payment.",
  "bank-transfer":
    "The full amount of the bank transfer had not arrived by the due date, so the order expired.",
};

/** What the buyer reads for a failed, cancelled or expired attempt (the return page's answer). */
export function paymentProblem(answer: Pick<OrderPaymentAnswer, "payment" | "method"> | null): string {
  const payment = answer?.payment;
  if (!answer || !payment) return "The payment did not go through.";
  if (payment.state === "cancelled") return "You cancelled the payment.";
  if (payment.state === "expired") return "The payment was not completed in time.";
  return payment.reason
    ? `${paymentDeclines[answer.method]} Reason given: ${payment.reason}`
    : paymentDeclines[answer.method];
}
