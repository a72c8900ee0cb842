import Stripe from "stripe";
import { accountStatusOf } from "#domain/payouts";
import {
  InvalidWebhookSignature,
  type PaymentProvider,
  type PaymentState,
  type RefundState,
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
 * webhooks verified with the SDK, refunds against the session's PaymentIntent.
 */
export function createStripeProvider(options: StripeProviderOptions): PaymentProvider {
  const stripe = new Stripe(options.secretKey, {
    // A checkout request waits on this call; better a clear failure the caller retries than a hang.
    timeout: 20_000,
    ...(options.apiBase ? addressOf(options.apiBase) : {}),
  });

  async function lookup(providerRef: string): Promise<PaymentState> {
    return sessionState(await stripe.checkout.sessions.retrieve(providerRef));
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
        const session = await stripe.checkout.sessions.retrieve(refund.providerRef);
        const paymentIntent =
          typeof session.payment_intent === "string" ? session.payment_intent : session.payment_intent?.id;
        if (!paymentIntent)
          return {
            providerRefundRef: "",
            state: "failed",
            reason: `Checkout session ${session.id} has no payment to refund`,
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
