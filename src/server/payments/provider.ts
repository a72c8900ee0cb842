/**
 * The contract every payment provider implements (test mode, Stripe, PayPal). Checkout and the
 * webhook route talk only to this; which provider runs is chosen from configuration at boot.
 *
 * Amounts cross this boundary as integer US cents (`amountCents`), the unit every provider charges in;
 * `chargeCents` in `#domain/money` turns an order total into it.
 */

import type { StripeAccountStatus } from "#domain/payouts";

export type ProviderName = "test" | "stripe" | "paypal";

/** What the buyer is sent to pay. */
export type PaymentStart = {
  orderId: string;
  /**
   * The provider's idempotency key: the order id and the attempt number, so a request repeated after a
   * crash answers with the same session, while a new attempt after a decline gets a new one.
   */
  idempotencyKey: string;
  amountCents: number;
  /** Shown on the provider's page, e.g. "Stackbay order 1A2B3C4D". */
  description: string;
  /** The buyer's verified account e-mail, prefilled on the provider's page. */
  email: string;
  /** Where the provider sends the buyer back after paying; our return page for this order. */
  returnUrl: string;
  /** Where the provider sends the buyer back after cancelling. */
  cancelUrl: string;
};

/** A payment session opened at the provider: its id and the page the buyer is redirected to. */
export type StartedPayment = { providerRef: string; redirectUrl: string };

/** What the provider says about one payment session. */
export type PaymentState =
  | { state: "pending" }
  /**
   * `amountCents` in the minor unit of `currency` (ISO 4217, lower case): the marketplace charges in
   * "usd" only, and refuses to deliver for anything else.
   */
  | { state: "paid"; amountCents: number; currency: string }
  | { state: "failed"; reason: string }
  | { state: "cancelled" }
  | { state: "expired" };

/**
 * One verified webhook event, reduced to what the marketplace acts on. `eventId` is the provider's own
 * event id (stored once; a repeated delivery is ignored). Events we do not act on are `ignored`.
 */
export type PaymentEvent = { eventId: string } & (
  | { kind: "payment"; providerRef: string; orderId: string | null; result: PaymentState }
  | {
      kind: "refund";
      providerRefundRef: string;
      /** Our refund id, when the provider echoes it back (metadata / custom id). */
      refundId: string | null;
      result: RefundState;
    }
  | {
      /** A Stripe Connect account of a seller or reseller changed (`account.updated`). */
      kind: "account";
      accountId: string;
      status: StripeAccountStatus;
      requirements: string[];
      /** When the provider produced the event: an older one delivered late changes nothing. */
      occurredAt: Date;
    }
  | { kind: "ignored"; type: string }
);

export type RefundRequest = {
  /** Our refund id; also the idempotency key, so a retried refund is not paid twice. */
  refundId: string;
  orderId: string;
  /** The payment session the money was taken in (`StartedPayment.providerRef`). */
  providerRef: string;
  amountCents: number;
};

export type RefundState = { state: "pending" } | { state: "succeeded" } | { state: "failed"; reason: string };

export type RefundResult = { providerRefundRef: string } & RefundState;

/** Thrown by `parseWebhook` when the signature (or the provider's verification) refuses the event. */
export class InvalidWebhookSignature extends Error {
  constructor(reason: string) {
    super(`webhook signature refused: ${reason}`);
    this.name = "InvalidWebhookSignature";
  }
}

export interface PaymentProvider {
  readonly name: ProviderName;
  /** Opens a hosted payment page for the order. No card data ever reaches our server. */
  start(payment: PaymentStart): Promise<StartedPayment>;
  /**
   * Called when the buyer comes back to the return page, with the query string the provider added
   * (PayPal's `token`): captures the payment where the provider needs it (PayPal) and answers the
   * session's state. Must be safe to call any number of times and after the webhook.
   */
  complete(providerRef: string, query: Record<string, string>): Promise<PaymentState>;
  /** Asks the provider for the session's state: the reconciliation job's question. */
  lookup(providerRef: string): Promise<PaymentState>;
  /**
   * Verifies the signature over the exact raw body and reduces the event; throws
   * `InvalidWebhookSignature` when it does not verify.
   */
  parseWebhook(
    rawBody: Buffer,
    headers: Record<string, string | string[] | undefined>,
  ): Promise<PaymentEvent>;
  /** Returns money to the buyer, in full or in part; idempotent by `refundId`. */
  refund(refund: RefundRequest): Promise<RefundResult>;
}
