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
  | {
      /**
       * A setup session (a payment method being saved) finished at the provider; its details are read with
       * `completeSetup(providerRef)`.
       */
      kind: "setup";
      providerRef: string;
    }
  | { kind: "ignored"; type: string }
);

/** What a buyer saves: a card (Stripe, or the test provider's test cards) or a PayPal account. */
export type SavedMethodKind = "card" | "paypal";

/** A saved payment method as the provider describes it. Never a card number: only what may be shown. */
export type SavedMethodDetails = {
  kind: SavedMethodKind;
  /** The provider's customer the method belongs to (a Stripe customer `cus_…`, a PayPal customer id). */
  customerRef: string;
  /** The reusable method: a Stripe PaymentMethod `pm_…`, a PayPal payment token. */
  methodRef: string;
  /** "visa", "mastercard", "amex"… as the provider writes it, or "paypal". */
  brand: string;
  /** A card's last four digits; null for PayPal. */
  last4: string | null;
  expMonth: number | null;
  expYear: number | null;
  /** The provider's fingerprint of the card number: the same card gives the same value for any customer. */
  fingerprint: string | null;
  /** The PayPal account's e-mail, when PayPal tells it (shown masked); null for a card. */
  email: string | null;
};

/** Opening a setup session: the buyer saves a method on the provider's page, and nothing is charged. */
export type SetupStart = {
  /** Our setup's id: the idempotency key of the session (and of the customer made for it). */
  setupId: string;
  kind: SavedMethodKind;
  /** The buyer's customer at this provider from an earlier setup, or null to make one. */
  customerRef: string | null;
  userId: string;
  /** The buyer's verified account e-mail. */
  email: string;
  returnUrl: string;
  cancelUrl: string;
};

/** `customerRef`: the customer the method will belong to, when the provider made or knows one already. */
export type StartedSetup = { providerRef: string; redirectUrl: string; customerRef: string | null };

export type SetupState =
  | { state: "pending" }
  | { state: "saved"; method: SavedMethodDetails }
  | { state: "failed"; reason: string }
  | { state: "cancelled" };

/** A charge made without the buyer present (a renewal, a retry, an upgrade), on a saved method. */
export type OffSessionCharge = {
  orderId: string;
  /** `<order id>:<attempt>`: asked again after a crash, the provider answers the charge it made. */
  idempotencyKey: string;
  amountCents: number;
  description: string;
  customerRef: string;
  methodRef: string;
};

/**
 * The provider's answer to an off-session charge. `hard`: the method cannot be charged again as it is (a
 * lost or stolen card, a closed account, a charge that needs the buyer present); retrying is pointless
 * and the buyer is asked directly. A soft decline (insufficient funds, a network refusal) may pass later.
 */
export type ChargeResult =
  | { state: "paid"; providerRef: string; amountCents: number; currency: string }
  | { state: "pending"; providerRef: string }
  | { state: "declined"; providerRef: string | null; reason: string; hard: boolean };

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
  /**
   * Opens a hosted page where the buyer saves a payment method for later charges (Stripe: a Checkout
   * Session in setup mode; PayPal: a vault setup token). No card data reaches our server.
   */
  startSetup(setup: SetupStart): Promise<StartedSetup>;
  /**
   * Reads (and, where the provider needs it, finishes: PayPal turns the approved setup token into a
   * payment token) a setup session. Safe to call any number of times, from the return page or a webhook.
   */
  completeSetup(providerRef: string, query: Record<string, string>): Promise<SetupState>;
  /**
   * Removes a method the buyer removed, so that no one can charge it at the provider any more (Stripe
   * detaches the PaymentMethod from its customer; PayPal deletes the payment token). One the provider no
   * longer has, or no longer holds for the customer, counts as removed. Throws on an outage: asked again.
   */
  forgetSaved(method: { customerRef: string; methodRef: string }): Promise<void>;
  /**
   * Charges a saved method now, without the buyer; idempotent by `idempotencyKey`. A refusal of the
   * charge is an answer (`declined`); an outage is thrown, and the same key is used again later.
   * `lookup` and `refund` take the `providerRef` it answers, as they take a payment page's.
   */
  chargeSaved(charge: OffSessionCharge): Promise<ChargeResult>;
}
