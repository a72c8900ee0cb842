import Stripe from "stripe";
import { accountStatusOf } from "#domain/payouts";
import {
  type ChargeResult,
  InvalidWebhookSignature,
  type PaymentProvider,
  type PaymentState,
  type RefundState,
  type SetupState,
} from "#server/payments/provider";

export type StripeProviderOptions = {
  /** The account's secret key (`sk_live_…` / `sk_test_…`). */
  secretKey: string;
  /** The signing secret of the Dashboard's webhook endpoint (`whsec_…`). */
  webhookSecret: string;
  /**
   * The signing secret of the Connect endpoint: Stripe sends connected accounts' events (`account.updated`)
   * from an endpoint of their own, to the same URL, signed with its own secret.
   */
  connectWebhookSecret?: string;
  /** Another API address than api.stripe.com, e.g. `http://127.0.0.1:4242` for a local stand-in. */
  apiBase?: string;
};

/** The SDK takes the API address as host, port and protocol, not as one URL. */
export function addressOf(apiBase: string): { host: string; port: number; protocol: "http" | "https" } {
  const url = new URL(apiBase);
  const protocol = url.protocol.slice(0, -1);
  if (protocol !== "http" && protocol !== "https")
    throw new Error(`the Stripe API base must be an http(s) address, not ${url.protocol}`);
  const port = url.port ? Number(url.port) : protocol === "https" ? 443 : 80;
  return { host: url.hostname, port, protocol };
}

/**
 * Stripe Checkout has no decline state: a declined card stays on Stripe's page and the session stays
 * open until it is paid or expires, so open (or complete but still unpaid, an async method's payment
 * on its way) is pending.
 */
function sessionState(session: Stripe.Checkout.Session): PaymentState {
  if (session.payment_status === "paid" || session.payment_status === "no_payment_required") {
    // We only open USD sessions (Adaptive Pricing keeps amount_total in them); a session in another
    // currency is answered as it is, and the payment refuses to deliver for it.
    if (session.amount_total === null)
      throw new Error(`Stripe answered paid session ${session.id} without an amount_total`);
    return { state: "paid", amountCents: session.amount_total, currency: session.currency ?? "" };
  }
  if (session.status === "expired") return { state: "expired" };
  return { state: "pending" };
}

/**
 * An off-session charge's PaymentIntent as `lookup` and the webhook see it. With `off_session: true` a
 * refused charge is not left waiting for the buyer: Stripe answers it `requires_payment_method` with
 * the refusal in `last_payment_error`, which is final for this PaymentIntent (a retry is a new one).
 */
function paymentIntentState(intent: Stripe.PaymentIntent): PaymentState {
  switch (intent.status) {
    case "succeeded":
      return { state: "paid", amountCents: intent.amount_received, currency: intent.currency };
    case "canceled":
      return { state: "cancelled" };
    case "requires_payment_method":
      if (intent.last_payment_error)
        return { state: "failed", reason: intent.last_payment_error.message ?? "Stripe declined the charge" };
      return { state: "pending" };
    default:
      return { state: "pending" };
  }
}

/**
 * Issuer (`decline_code`) and Stripe (`code`) reasons after which charging the same saved method again
 * is pointless: the card is gone (lost, stolen, closed, expired, a wrong number), the issuer refuses
 * this kind of charge, or it wants the buyer present to authenticate. Every other decline
 * (insufficient_funds, generic_decline, do_not_honor, try_again_later, processing_error…) is soft:
 * the same card may pass on a later retry.
 */
export const STRIPE_HARD_DECLINES: ReadonlySet<string> = new Set([
  "lost_card",
  "stolen_card",
  "pickup_card",
  "restricted_card",
  "fraudulent",
  "revocation_of_authorization",
  "revocation_of_all_authorizations",
  "stop_payment_order",
  "invalid_account",
  "card_not_supported",
  "expired_card",
  "incorrect_number",
  "invalid_number",
  "authentication_required",
  "security_violation",
  "transaction_not_allowed",
  "currency_not_supported",
]);

function isHardDecline(code: string | null | undefined): boolean {
  return code !== null && code !== undefined && STRIPE_HARD_DECLINES.has(code);
}

/** What Stripe answered to a confirmed off-session PaymentIntent that it did not refuse with an error. */
function chargeResult(intent: Stripe.PaymentIntent): ChargeResult {
  switch (intent.status) {
    case "succeeded":
      return {
        state: "paid",
        providerRef: intent.id,
        amountCents: intent.amount_received,
        currency: intent.currency,
      };
    case "processing":
    case "requires_capture":
      // Accepted but not settled yet: the webhook (or `lookup`) tells the outcome.
      return { state: "pending", providerRef: intent.id };
    case "requires_action":
      // The issuer wants the buyer to authenticate (3-D Secure), which nobody can do off session.
      return {
        state: "declined",
        providerRef: intent.id,
        reason: "The card's issuer requires the buyer to authenticate this payment",
        hard: true,
      };
    default: {
      const error = intent.last_payment_error;
      return {
        state: "declined",
        providerRef: intent.id,
        reason: error?.message ?? `Stripe left the payment ${intent.status}`,
        hard: isHardDecline(error?.decline_code ?? error?.code),
      };
    }
  }
}

/**
 * A setup session read with its SetupIntent and PaymentMethod expanded. Like a payment page, a card
 * refused while saving keeps the buyer on Stripe's page; the SetupIntent's error is what we can show
 * them when they come back without a saved card.
 */
function setupState(session: Stripe.Checkout.Session): SetupState {
  if (session.mode !== "setup") throw new Error(`Checkout session ${session.id} is not a setup session`);
  if (session.status === "expired") return { state: "cancelled" };
  const intent = session.setup_intent;
  if (intent === null) return { state: "pending" };
  if (typeof intent === "string")
    throw new Error(`Stripe answered setup session ${session.id} without expanding its SetupIntent`);
  if (intent.status === "canceled") return { state: "cancelled" };
  if (session.status === "complete" && intent.status === "succeeded") {
    const method = intent.payment_method;
    if (method === null || typeof method === "string" || !method.card)
      throw new Error(`Stripe answered setup session ${session.id} saved without a card`);
    const customer = session.customer ?? intent.customer;
    const customerRef = typeof customer === "string" ? customer : customer?.id;
    if (!customerRef) throw new Error(`Stripe answered setup session ${session.id} without a customer`);
    const { card } = method;
    return {
      state: "saved",
      method: {
        kind: "card",
        customerRef,
        methodRef: method.id,
        brand: card.brand,
        last4: card.last4,
        expMonth: card.exp_month,
        expYear: card.exp_year,
        fingerprint: card.fingerprint ?? null,
        email: null,
      },
    };
  }
  if (intent.last_setup_error && intent.status === "requires_payment_method")
    return { state: "failed", reason: intent.last_setup_error.message ?? "Stripe could not save the card" };
  return { state: "pending" };
}

/** Stripe's PaymentIntent ids; anything else we hold is a Checkout Session's (`cs_…`). */
const isPaymentIntent = (providerRef: string) => providerRef.startsWith("pi_");

/** Off-session PaymentIntents carry this in their metadata; Checkout's own do not. */
const OFF_SESSION_METADATA = "offSession";

function refundState(refund: Stripe.Refund): RefundState {
  switch (refund.status) {
    case "succeeded":
      return { state: "succeeded" };
    case "failed":
    case "canceled":
      return {
        state: "failed",
        reason: `Stripe refund ${refund.status}: ${refund.failure_reason ?? "no reason given"}`,
      };
    default:
      // pending, requires_action (the buyer must give Stripe details to receive it) or a status newer
      // than this SDK: not settled either way yet.
      return { state: "pending" };
  }
}

function orderIdOf(session: Stripe.Checkout.Session): string | null {
  return session.metadata?.orderId ?? session.client_reference_id ?? null;
}

/** Stripe's message for the first line only: the SDK appends documentation links and hints. */
export function firstLine(message: string): string {
  return message.split("\n")[0]?.trim() ?? message;
}

function withSessionId(returnUrl: string): string {
  // Stripe replaces the placeholder with the session id; it must stay unescaped in the URL.
  const separator = returnUrl.includes("?") ? "&" : "?";
  return `${returnUrl}${separator}session_id={CHECKOUT_SESSION_ID}`;
}

/** Stripe's two webhook endpoints: our own account's events, and connected accounts' (Connect). */
type WebhookEndpoint = "platform" | "connect";

/** Connected accounts' event families; everything else (checkout, refunds, charges) is the platform's. */
const CONNECT_EVENT_PREFIXES = ["account.", "capability.", "person.", "payout."];

function endpointOf(type: string): WebhookEndpoint {
  return CONNECT_EVENT_PREFIXES.some((prefix) => type.startsWith(prefix)) ? "connect" : "platform";
}

/** The SDK's default tolerance (five minutes), used both ways. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/**
 * The SDK refuses a signature timestamp older than its tolerance but not one in the future: a
 * delivery signed ahead of time (a leaked secret, a skewed clock) would stay valid until then.
 */
function refuseFutureTimestamp(signature: string, nowMs: number): void {
  const stamp = /(?:^|,)\s*t=(\d+)/.exec(signature)?.[1];
  if (stamp === undefined) return; // the SDK refuses a header without one
  if (Number(stamp) - Math.floor(nowMs / 1000) > WEBHOOK_TOLERANCE_SECONDS)
    throw new InvalidWebhookSignature("timestamp is ahead of now beyond the tolerance");
}

/**
 * The Stripe provider: a hosted Checkout Session per payment attempt (card, Apple Pay and Google Pay as
 * the Dashboard's automatic payment methods allow), its state read back from the session, signed
 * webhooks verified with the SDK, refunds against the session's PaymentIntent. Saved cards: a Checkout
 * Session in setup mode for a Stripe customer of the buyer, then PaymentIntents confirmed off session
 * on the saved PaymentMethod, whose ids (`pi_…`) `lookup` and `refund` take as they take a session's.
 */
export function createStripeProvider(options: StripeProviderOptions): PaymentProvider {
  const stripe = new Stripe(options.secretKey, {
    // A checkout request waits on this call; better a clear failure the caller retries than a hang.
    timeout: 20_000,
    ...(options.apiBase ? addressOf(options.apiBase) : {}),
  });

  async function lookup(providerRef: string): Promise<PaymentState> {
    if (isPaymentIntent(providerRef))
      return paymentIntentState(await stripe.paymentIntents.retrieve(providerRef));
    return sessionState(await stripe.checkout.sessions.retrieve(providerRef));
  }

  /** The PaymentIntent a refund goes against: the off-session charge itself, or the session's. */
  async function paymentIntentOf(providerRef: string): Promise<string | null> {
    if (isPaymentIntent(providerRef)) return providerRef;
    const session = await stripe.checkout.sessions.retrieve(providerRef);
    return (
      (typeof session.payment_intent === "string" ? session.payment_intent : session.payment_intent?.id) ??
      null
    );
  }

  return {
    name: "stripe",

    async start(payment) {
      const session = await stripe.checkout.sessions.create(
        {
          mode: "payment",
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: "usd",
                unit_amount: payment.amountCents,
                product_data: { name: payment.description },
              },
            },
          ],
          customer_email: payment.email,
          client_reference_id: payment.orderId,
          metadata: { orderId: payment.orderId },
          success_url: withSessionId(payment.returnUrl),
          cancel_url: payment.cancelUrl,
        },
        { idempotencyKey: payment.idempotencyKey },
      );
      if (!session.url) throw new Error(`Stripe opened checkout session ${session.id} without a page URL`);
      return { providerRef: session.id, redirectUrl: session.url };
    },

    complete: (providerRef) => lookup(providerRef),
    lookup,

    async startSetup(setup) {
      // PayPal accounts are vaulted by the PayPal provider; Stripe here saves cards only.
      if (setup.kind !== "card") throw new Error(`Stripe does not save ${setup.kind} methods, only cards`);
      // The customer is made under the setup's key too: a start repeated after a crash between the two
      // calls finds the same customer instead of leaving an orphan one.
      const customerRef =
        setup.customerRef ??
        (
          await stripe.customers.create(
            { email: setup.email, metadata: { userId: setup.userId } },
            { idempotencyKey: `customer:${setup.setupId}` },
          )
        ).id;
      const session = await stripe.checkout.sessions.create(
        {
          mode: "setup",
          customer: customerRef,
          currency: "usd",
          // This API version replaced `payment_method_types` with this filter; cards only.
          allowed_payment_method_types: ["card"],
          metadata: { setupId: setup.setupId },
          success_url: withSessionId(setup.returnUrl),
          cancel_url: setup.cancelUrl,
        },
        { idempotencyKey: `setup:${setup.setupId}` },
      );
      if (!session.url) throw new Error(`Stripe opened setup session ${session.id} without a page URL`);
      return { providerRef: session.id, redirectUrl: session.url, customerRef };
    },

    async completeSetup(providerRef) {
      return setupState(
        await stripe.checkout.sessions.retrieve(providerRef, { expand: ["setup_intent.payment_method"] }),
      );
    },

    async forgetSaved({ methodRef }) {
      let method: Stripe.PaymentMethod;
      try {
        method = await stripe.paymentMethods.retrieve(methodRef);
      } catch (error) {
        // Stripe has no such method: nobody can charge it, which is the point.
        if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code === "resource_missing")
          return;
        throw error;
      }
      // Detached already (an earlier run of the job): Stripe refuses to detach it twice.
      if (!method.customer) return;
      await stripe.paymentMethods.detach(methodRef);
    },

    async chargeSaved(charge) {
      try {
        const intent = await stripe.paymentIntents.create(
          {
            amount: charge.amountCents,
            currency: "usd",
            customer: charge.customerRef,
            payment_method: charge.methodRef,
            // Off session: Stripe refuses at once what would need the buyer instead of waiting for them.
            off_session: true,
            confirm: true,
            description: charge.description,
            metadata: { orderId: charge.orderId, [OFF_SESSION_METADATA]: "1" },
          },
          { idempotencyKey: charge.idempotencyKey },
        );
        return chargeResult(intent);
      } catch (error) {
        // A refused card is an answer (402): the PaymentIntent it left behind, the issuer's reason.
        if (error instanceof Stripe.errors.StripeCardError)
          return {
            state: "declined",
            providerRef: error.payment_intent?.id ?? null,
            reason: firstLine(error.message),
            hard: isHardDecline(error.decline_code ?? error.code),
          };
        // The saved method is gone (detached, or no longer usable): asking again cannot help.
        if (
          error instanceof Stripe.errors.StripeInvalidRequestError &&
          (error.code === "payment_method_not_available" || error.code === "resource_missing")
        )
          return {
            state: "declined",
            providerRef: error.payment_intent?.id ?? null,
            reason: firstLine(error.message),
            hard: true,
          };
        // Network, Stripe down, rate limit, a wrong key: thrown, and charged again later with the same key.
        throw error;
      }
    },

    async parseWebhook(rawBody, headers) {
      const signature = headers["stripe-signature"];
      if (typeof signature !== "string" || signature === "")
        throw new InvalidWebhookSignature("no stripe-signature header");
      refuseFutureTimestamp(signature, Date.now());
      let verified: { event: Stripe.Event; endpoint: WebhookEndpoint } | undefined;
      let refusal = "";
      const endpoints: [WebhookEndpoint, string | undefined][] = [
        ["platform", options.webhookSecret],
        ["connect", options.connectWebhookSecret],
      ];
      for (const [endpoint, secret] of endpoints) {
        if (!secret || verified) continue;
        try {
          verified = {
            event: stripe.webhooks.constructEvent(rawBody, signature, secret, WEBHOOK_TOLERANCE_SECONDS),
            endpoint,
          };
        } catch (error) {
          refusal ||= error instanceof Error ? firstLine(error.message) : String(error);
        }
      }
      if (!verified) throw new InvalidWebhookSignature(refusal);
      const { event, endpoint } = verified;
      // With a Connect endpoint of its own, each secret vouches only for its endpoint's events: the
      // platform's for our payments and refunds, the Connect one for connected accounts'. Without one
      // (a single endpoint, or `stripe listen` forwarding both), the platform secret signs both.
      const scope: WebhookEndpoint[] = options.connectWebhookSecret ? [endpoint] : ["platform", "connect"];
      if (!scope.includes(endpointOf(event.type)))
        throw new InvalidWebhookSignature(`${event.type} is not an event of the ${endpoint} endpoint`);
      const eventId = event.id;
      switch (event.type) {
        case "checkout.session.completed":
        case "checkout.session.async_payment_succeeded":
        case "checkout.session.expired": {
          const session = event.data.object;
          // A saved method, not a payment: read back with `completeSetup`.
          if (session.mode === "setup") return { eventId, kind: "setup", providerRef: session.id };
          return {
            eventId,
            kind: "payment",
            providerRef: session.id,
            orderId: orderIdOf(session),
            result: sessionState(session),
          };
        }
        case "checkout.session.async_payment_failed": {
          const session = event.data.object;
          return {
            eventId,
            kind: "payment",
            providerRef: session.id,
            orderId: orderIdOf(session),
            // Only delayed methods (bank debits) fail after checkout; a declined card never leaves the page.
            result: { state: "failed", reason: "Stripe could not collect the payment after checkout" },
          };
        }
        case "payment_intent.succeeded":
        case "payment_intent.payment_failed":
        case "payment_intent.canceled": {
          const intent = event.data.object;
          // Checkout's own PaymentIntents are told through their session's events; only our off-session
          // charges, whose providerRef is the PaymentIntent, are told through these.
          if (intent.metadata?.[OFF_SESSION_METADATA] !== "1")
            return { eventId, kind: "ignored", type: event.type };
          return {
            eventId,
            kind: "payment",
            providerRef: intent.id,
            orderId: intent.metadata.orderId ?? null,
            result:
              event.type === "payment_intent.payment_failed"
                ? {
                    state: "failed",
                    reason: intent.last_payment_error?.message ?? "Stripe declined the charge",
                  }
                : paymentIntentState(intent),
          };
        }
        case "refund.created":
        case "refund.updated":
        case "refund.failed":
        case "charge.refund.updated": {
          const refund = event.data.object;
          return {
            eventId,
            kind: "refund",
            providerRefundRef: refund.id,
            refundId: refund.metadata?.refundId ?? null,
            result: refundState(refund),
          };
        }
        case "account.updated": {
          // A connected account (Connect) changed: what it can do now and what Stripe still needs.
          const account = event.data.object;
          return {
            eventId,
            kind: "account",
            accountId: account.id,
            occurredAt: new Date(event.created * 1000),
            ...accountStatusOf({
              payoutsEnabled: account.payouts_enabled === true,
              detailsSubmitted: account.details_submitted === true,
              currentlyDue: account.requirements?.currently_due ?? [],
            }),
          };
        }
        default:
          return { eventId, kind: "ignored", type: event.type };
      }
    },

    async refund(refund) {
      try {
        const paymentIntent = await paymentIntentOf(refund.providerRef);
        if (!paymentIntent)
          return {
            providerRefundRef: "",
            state: "failed",
            reason: `Checkout session ${refund.providerRef} has no payment to refund`,
          };
        const created = await stripe.refunds.create(
          {
            payment_intent: paymentIntent,
            amount: refund.amountCents,
            metadata: { refundId: refund.refundId, orderId: refund.orderId },
          },
          { idempotencyKey: `refund:${refund.refundId}` },
        );
        return { providerRefundRef: created.id, ...refundState(created) };
      } catch (error) {
        // Stripe refusing the request (already refunded, more than was paid, unknown session) is an
        // answer; anything else (network, Stripe down, rate limit, a wrong key) is thrown for a retry.
        if (error instanceof Stripe.errors.StripeInvalidRequestError)
          return { providerRefundRef: "", state: "failed", reason: firstLine(error.message) };
        throw error;
      }
    },
  };
}
