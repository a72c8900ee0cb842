import { z } from "zod";
import {
  type ChargeResult,
  InvalidWebhookSignature,
  type PaymentEvent,
  type PaymentProvider,
  type PaymentState,
  type RefundResult,
  type RefundState,
  type SetupState,
} from "#server/payments/provider";

/**
 * PayPal through its documented REST API (Orders v2, Payments v2, Payment Method Tokens v3, webhook
 * verification) with the global `fetch`: PayPal's server SDK cannot be pointed at another host, and the
 * tests run against a stand-in (`src/server/test/paypal-stand-in.ts`) the same way production runs
 * against api-m.paypal.com.
 *
 * Saved PayPal accounts follow PayPal's "save without purchase" flow: a setup token the buyer approves
 * on PayPal's page, exchanged by us for a payment token (the saved method), which later orders name as
 * `payment_source.paypal.vault_id` and PayPal charges without the buyer.
 */

export type PayPalOptions = {
  clientId: string;
  clientSecret: string;
  /** The id PayPal gave the webhook subscription; verification is asked for this webhook. */
  webhookId: string;
  /** `https://api-m.paypal.com` (live, the default) or `https://api-m.sandbox.paypal.com`. */
  apiBase?: string;
  /** How long one call to PayPal may take before it is abandoned (and thrown). */
  timeoutMs?: number;
};

export const PAYPAL_LIVE_API = "https://api-m.paypal.com";
export const PAYPAL_SANDBOX_API = "https://api-m.sandbox.paypal.com";

/** A token is renewed this long before PayPal says it expires, so none is sent as it lapses. */
const TOKEN_MARGIN_MS = 60_000;
/** PayPal limits `description` to 127 characters. */
const MAX_DESCRIPTION = 127;

/** A refusal PayPal answered with a 4xx and its documented error body. */
export class PayPalApiError extends Error {
  readonly status: number;
  /** `details[0].issue` (e.g. INSTRUMENT_DECLINED) or the error's `name`. */
  readonly issue: string;
  readonly description: string;
  /** PayPal's id for the failed call, what its support asks for. */
  readonly debugId: string | null;

  constructor(status: number, issue: string, description: string, debugId: string | null) {
    super(`PayPal refused the request (${status} ${issue}): ${description}`);
    this.name = "PayPalApiError";
    this.status = status;
    this.issue = issue;
    this.description = description;
    this.debugId = debugId;
  }
}

// What we read of PayPal's answers; everything else they carry passes through unread.
const money = z.looseObject({ currency_code: z.string(), value: z.string() });
const links = z.array(z.looseObject({ href: z.string(), rel: z.string() })).optional();
const captureSchema = z.looseObject({
  id: z.string(),
  status: z.string(),
  amount: money.optional(),
  custom_id: z.string().optional(),
  invoice_id: z.string().optional(),
  status_details: z.looseObject({ reason: z.string().optional() }).optional(),
  supplementary_data: z
    .looseObject({ related_ids: z.looseObject({ order_id: z.string().optional() }).optional() })
    .optional(),
});
type Capture = z.infer<typeof captureSchema>;
const orderSchema = z.looseObject({
  id: z.string(),
  status: z.string(),
  purchase_units: z
    .array(
      z.looseObject({
        custom_id: z.string().optional(),
        payments: z.looseObject({ captures: z.array(captureSchema).optional() }).optional(),
      }),
    )
    .optional(),
  links,
});
type Order = z.infer<typeof orderSchema>;
const vaultCustomer = z.looseObject({ id: z.string() }).optional();
const setupTokenSchema = z.looseObject({
  id: z.string(),
  status: z.string(),
  customer: vaultCustomer,
  links,
});
type SetupToken = z.infer<typeof setupTokenSchema>;
const paymentTokenSchema = z.looseObject({
  id: z.string(),
  customer: vaultCustomer,
  payment_source: z
    .looseObject({ paypal: z.looseObject({ email_address: z.string().optional() }).optional() })
    .optional(),
});
const refundSchema = z.looseObject({
  id: z.string(),
  status: z.string(),
  custom_id: z.string().optional(),
  invoice_id: z.string().optional(),
  status_details: z.looseObject({ reason: z.string().optional() }).optional(),
});
const tokenSchema = z.looseObject({ access_token: z.string(), expires_in: z.number() });
const errorSchema = z.looseObject({
  name: z.string().optional(),
  message: z.string().optional(),
  debug_id: z.string().optional(),
  details: z
    .array(z.looseObject({ issue: z.string().optional(), description: z.string().optional() }))
    .optional(),
  // OAuth errors are worded differently.
  error: z.string().optional(),
  error_description: z.string().optional(),
});
const verificationSchema = z.looseObject({ verification_status: z.string() });
const eventSchema = z.looseObject({
  id: z.string(),
  event_type: z.string(),
  resource: z.record(z.string(), z.unknown()),
});

/** Whole cents as PayPal writes USD: "12.34". Integer arithmetic, so no float ever rounds a price. */
export function centsToValue(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new RangeError(`Not an amount in cents: ${cents}`);
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
}

export function valueToCents(value: string): number {
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(value);
  if (!match) throw new RangeError(`Not a USD amount: ${value}`);
  return Number(match[1]) * 100 + Number((match[2] ?? "0").padEnd(2, "0"));
}

/** Capture refusals that mean "this payment did not happen": the order is failed, a new attempt may follow. */
const DECLINE_ISSUES = new Set([
  "INSTRUMENT_DECLINED",
  "TRANSACTION_REFUSED",
  "PAYER_CANNOT_PAY",
  "PAYEE_BLOCKED_TRANSACTION",
  "COMPLIANCE_VIOLATION",
  "MAX_NUMBER_OF_PAYMENT_ATTEMPTS_EXCEEDED",
  "REDIRECT_PAYER_FOR_ALTERNATE_FUNDING",
  "DUPLICATE_INVOICE_ID",
]);
/** Capture refusals that mean "the buyer has not finished at PayPal yet". */
const NOT_YET_ISSUES = new Set(["ORDER_NOT_APPROVED", "PAYER_ACTION_REQUIRED"]);

/**
 * Refusals of a charge on a saved PayPal account that mean the payment token cannot be charged again as
 * it is: the account is closed, locked or restricted, its settings forbid paying us, the buyer cancelled
 * the agreement behind the token, or PayPal no longer accepts the token. Retrying is pointless; the buyer
 * is asked to come back. Any other refusal (INSTRUMENT_DECLINED, TRANSACTION_REFUSED: the funding source
 * turned this payment down) is soft and may pass later.
 */
export const PAYPAL_HARD_DECLINES: ReadonlySet<string> = new Set([
  "PAYER_ACCOUNT_LOCKED_OR_CLOSED",
  "PAYER_ACCOUNT_RESTRICTED",
  "PAYER_CANNOT_PAY",
  "AGREEMENT_ALREADY_CANCELLED",
  "BILLING_AGREEMENT_NOT_FOUND",
  "INVALID_PAYMENT_TOKEN",
  "PAYMENT_SOURCE_CANNOT_BE_USED",
  "PAYMENT_SOURCE_INFO_CANNOT_BE_VERIFIED",
]);

/**
 * Setup token statuses from which a payment token is made: APPROVED by the buyer, or VAULTED (a payment
 * token was made already; asked again with the same request id, PayPal answers that same token).
 */
const SETUP_READY = new Set(["APPROVED", "VAULTED"]);

function headerValue(headers: Record<string, string | string[] | undefined>, name: string): string | null {
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== name) continue;
    const first = Array.isArray(value) ? value[0] : value;
    return first?.trim() ? first.trim() : null;
  }
  return null;
}

type Answer = { status: number; body: unknown };

export function createPayPalProvider(options: PayPalOptions): PaymentProvider {
  const apiBase = (options.apiBase ?? PAYPAL_LIVE_API).replace(/\/+$/, "");
  const timeoutMs = options.timeoutMs ?? 20_000;
  const basic = Buffer.from(`${options.clientId}:${options.clientSecret}`).toString("base64");

  let token: { value: string; renewAt: number } | null = null;
  let tokenRequest: Promise<string> | null = null;

  async function send(path: string, init: RequestInit): Promise<Answer> {
    const response = await fetch(`${apiBase}${path}`, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    const text = await response.text();
    let body: unknown = null;
    if (text) {
      try {
        body = JSON.parse(text);
      } catch {
        body = null;
      }
    }
    return { status: response.status, body };
  }

  function refusal(answer: Answer): PayPalApiError {
    const parsed = errorSchema.safeParse(answer.body);
    const error = parsed.success ? parsed.data : {};
    const detail = error.details?.[0];
    return new PayPalApiError(
      answer.status,
      detail?.issue ?? error.name ?? error.error ?? `HTTP_${answer.status}`,
      detail?.description ?? error.message ?? error.error_description ?? "no description given",
      error.debug_id ?? null,
    );
  }

  /** PayPal is unreachable or broken (5xx): nothing was decided, so the caller retries later. */
  function outage(answer: Answer, what: string): Error {
    const debugId = errorSchema.safeParse(answer.body).data?.debug_id;
    return new Error(`PayPal ${what} failed with ${answer.status}${debugId ? ` (debug id ${debugId})` : ""}`);
  }

  async function fetchToken(): Promise<string> {
    const answer = await send("/v1/oauth2/token", {
      method: "POST",
      headers: {
        authorization: `Basic ${basic}`,
        "content-type": "application/x-www-form-urlencoded",
        accept: "application/json",
      },
      body: "grant_type=client_credentials",
    });
    if (answer.status >= 500) throw outage(answer, "token request");
    if (answer.status !== 200) throw refusal(answer);
    const parsed = tokenSchema.parse(answer.body);
    token = {
      value: parsed.access_token,
      renewAt: Date.now() + Math.max(0, parsed.expires_in * 1000 - TOKEN_MARGIN_MS),
    };
    return parsed.access_token;
  }

  /** The cached token while it is fresh; concurrent callers share one token request. */
  function accessToken(): Promise<string> {
    if (token && Date.now() < token.renewAt) return Promise.resolve(token.value);
    tokenRequest ??= fetchToken().finally(() => {
      tokenRequest = null;
    });
    return tokenRequest;
  }

  /** One authenticated call; a 401 (token revoked or expired early at PayPal) gets one new token and a retry. */
  async function call(
    method: "GET" | "POST" | "DELETE",
    path: string,
    extra: { body?: string; requestId?: string } = {},
  ): Promise<Answer> {
    const attempt = async (bearer: string) =>
      send(path, {
        method,
        headers: {
          authorization: `Bearer ${bearer}`,
          accept: "application/json",
          ...(extra.body === undefined ? {} : { "content-type": "application/json" }),
          ...(extra.requestId ? { "paypal-request-id": extra.requestId } : {}),
          prefer: "return=representation",
        },
        body: extra.body,
      });
    const used = await accessToken();
    const first = await attempt(used);
    if (first.status !== 401) return first;
    if (token?.value === used) token = null;
    return attempt(await accessToken());
  }

  async function getOrder(id: string): Promise<Order | null> {
    const answer = await call("GET", `/v2/checkout/orders/${encodeURIComponent(id)}`);
    if (answer.status === 404) return null;
    if (answer.status >= 500) throw outage(answer, "order lookup");
    if (answer.status !== 200) throw refusal(answer);
    return orderSchema.parse(answer.body);
  }

  function capturesOf(order: Order): Capture[] {
    return order.purchase_units?.[0]?.payments?.captures ?? [];
  }

  function captureState(capture: Capture): PaymentState {
    switch (capture.status) {
      // A refund later does not undo that the payment was taken; refunds are their own events.
      case "COMPLETED":
      case "PARTIALLY_REFUNDED":
      case "REFUNDED":
        return {
          state: "paid",
          amountCents: valueToCents(capture.amount?.value ?? ""),
          currency: capture.amount?.currency_code.toLowerCase() ?? "",
        };
      case "PENDING":
        return { state: "pending" };
      default:
        return {
          state: "failed",
          reason: capture.status_details?.reason
            ? `PayPal ${capture.status.toLowerCase()} the capture (${capture.status_details.reason})`
            : `PayPal ${capture.status.toLowerCase()} the capture`,
        };
    }
  }

  function completedState(order: Order): PaymentState {
    const captures = capturesOf(order);
    const taken = captures.find((c) => ["COMPLETED", "PARTIALLY_REFUNDED", "REFUNDED"].includes(c.status));
    const chosen = taken ?? captures.find((c) => c.status === "PENDING") ?? captures[0];
    return chosen ? captureState(chosen) : { state: "pending" };
  }

  /** Captures the order: the order as captured, or PayPal's refusal. */
  async function requestCapture(id: string): Promise<Order | PayPalApiError> {
    const answer = await call("POST", `/v2/checkout/orders/${encodeURIComponent(id)}/capture`, {
      body: "{}",
      // The same key for every capture of this order: two returns, or a return racing the
      // reconciliation job, capture once and both read the same answer.
      requestId: `capture:${id}`,
    });
    if (answer.status === 200 || answer.status === 201) return orderSchema.parse(answer.body);
    if (answer.status >= 500) throw outage(answer, "capture");
    return refusal(answer);
  }

  async function capture(id: string): Promise<PaymentState> {
    const captured = await requestCapture(id);
    if (!(captured instanceof PayPalApiError)) return completedState(captured);
    const error = captured;
    if (DECLINE_ISSUES.has(error.issue)) return { state: "failed", reason: error.description };
    if (NOT_YET_ISSUES.has(error.issue)) return { state: "pending" };
    if (error.issue === "ORDER_ALREADY_CAPTURED") {
      const order = await getOrder(id);
      return order ? completedState(order) : { state: "expired" };
    }
    if (error.issue === "ORDER_EXPIRED" || error.status === 404) return { state: "expired" };
    throw error;
  }

  /** What the order stands at, capturing it when the buyer has approved it. */
  async function settle(id: string): Promise<PaymentState> {
    const order = await getOrder(id);
    // PayPal forgets an order nobody captured once it lapses (3 hours unapproved, 3 days approved).
    if (!order) return { state: "expired" };
    switch (order.status) {
      case "APPROVED":
        return capture(id);
      case "COMPLETED":
        return completedState(order);
      case "VOIDED":
        return { state: "cancelled" };
      default:
        // CREATED, SAVED, PAYER_ACTION_REQUIRED: the buyer has not approved it (yet).
        return { state: "pending" };
    }
  }

  /** A refusal of an off-session charge, as an answer; `hard` when the token cannot be charged again as it is. */
  function declined(providerRef: string | null, error: PayPalApiError, hard: boolean): ChargeResult {
    // Our credentials or permissions refused (the app not enabled for vaulting, say) is our fault, not
    // the buyer's: thrown, so the charge is tried again with the same key once the configuration is fixed.
    if (error.status === 401 || error.status === 403) throw error;
    return { state: "declined", providerRef, reason: `${error.description} (${error.issue})`, hard };
  }

  /** An off-session charge's order, once PayPal decided on its capture. */
  function chargeState(providerRef: string, state: PaymentState): ChargeResult {
    switch (state.state) {
      case "paid":
        return { state: "paid", providerRef, amountCents: state.amountCents, currency: state.currency };
      case "pending":
        return { state: "pending", providerRef };
      case "failed":
        return { state: "declined", providerRef, reason: state.reason, hard: false };
      default:
        return {
          state: "declined",
          providerRef,
          reason: `PayPal answered the order ${state.state}`,
          hard: false,
        };
    }
  }

  /**
   * The order PayPal made for a charge on a payment token. PayPal normally completes it at once, capture
   * included; an order it leaves APPROVED (or CREATED) is captured here, through the same request id as
   * any capture of that order, so a repeated charge captures once.
   */
  async function vaultedCharge(order: Order): Promise<ChargeResult> {
    switch (order.status) {
      case "COMPLETED":
        return chargeState(order.id, completedState(order));
      case "APPROVED":
      case "CREATED": {
        const captured = await requestCapture(order.id);
        if (!(captured instanceof PayPalApiError)) return chargeState(order.id, completedState(captured));
        if (captured.issue === "ORDER_ALREADY_CAPTURED") {
          const current = await getOrder(order.id);
          if (current) return chargeState(order.id, completedState(current));
        }
        // PayPal wants the buyer to approve this payment: it cannot be taken without them.
        if (NOT_YET_ISSUES.has(captured.issue)) return declined(order.id, captured, true);
        return declined(order.id, captured, PAYPAL_HARD_DECLINES.has(captured.issue));
      }
      case "PAYER_ACTION_REQUIRED":
        return {
          state: "declined",
          providerRef: order.id,
          reason: "PayPal asks the buyer to approve this payment",
          hard: true,
        };
      default:
        // VOIDED: PayPal dropped the order (a risk review, say); a later attempt may pass.
        return {
          state: "declined",
          providerRef: order.id,
          reason: `PayPal answered the order ${order.status.toLowerCase()}`,
          hard: false,
        };
    }
  }

  /**
   * Turns the approved setup token into a payment token (the saved method). The request id is the setup
   * token's: PayPal makes one payment token per setup token, and answers a repeat with the same one.
   */
  async function vault(setup: SetupToken): Promise<SetupState> {
    const answer = await call("POST", "/v3/vault/payment-tokens", {
      body: JSON.stringify({ payment_source: { token: { id: setup.id, type: "SETUP_TOKEN" } } }),
      requestId: `token:${setup.id}`,
    });
    if (answer.status >= 500) throw outage(answer, "payment token creation");
    if (answer.status !== 200 && answer.status !== 201) {
      const error = refusal(answer);
      // The setup token lapsed between reading it and exchanging it.
      if (answer.status === 404) return { state: "cancelled" };
      if (error.issue === "PAYER_ACTION_REQUIRED") return { state: "pending" };
      // SETUP_TOKEN_ALREADY_TOKENIZED only comes once PayPal has forgotten our request id (hours
      // later): an earlier call made the payment token and answered it. Thrown rather than failed, so the
      // method saved then is not undone.
      if (answer.status === 401 || answer.status === 403 || error.issue === "SETUP_TOKEN_ALREADY_TOKENIZED")
        throw error;
      return { state: "failed", reason: `${error.description} (${error.issue})` };
    }
    const token = paymentTokenSchema.parse(answer.body);
    const customerRef = token.customer?.id ?? setup.customer?.id;
    if (!customerRef) throw new Error(`PayPal payment token ${token.id} came back without a customer`);
    return {
      state: "saved",
      method: {
        kind: "paypal",
        customerRef,
        methodRef: token.id,
        brand: "paypal",
        last4: null,
        expMonth: null,
        expYear: null,
        fingerprint: null,
        email: token.payment_source?.paypal?.email_address ?? null,
      },
    };
  }

  function refundState(status: string, reason: string | undefined): RefundState {
    if (status === "COMPLETED") return { state: "succeeded" };
    if (status === "PENDING") return { state: "pending" };
    return {
      state: "failed",
      reason: reason
        ? `PayPal ${status.toLowerCase()} the refund (${reason})`
        : `PayPal ${status.toLowerCase()} the refund`,
    };
  }

  async function verify(rawBody: Buffer, headers: Record<string, string | string[] | undefined>) {
    const names = {
      auth_algo: "paypal-auth-algo",
      cert_url: "paypal-cert-url",
      transmission_id: "paypal-transmission-id",
      transmission_sig: "paypal-transmission-sig",
      transmission_time: "paypal-transmission-time",
    } as const;
    const fields: Record<string, string> = {};
    for (const [field, header] of Object.entries(names)) {
      const value = headerValue(headers, header);
      if (!value) throw new InvalidWebhookSignature(`missing ${header} header`);
      fields[field] = value;
    }
    const text = rawBody.toString("utf8");
    let event: unknown;
    try {
      event = JSON.parse(text);
    } catch {
      throw new InvalidWebhookSignature("the body is not JSON");
    }
    const parsed = eventSchema.safeParse(event);
    if (!parsed.success) throw new InvalidWebhookSignature("the body is not a PayPal event");
    // PayPal checks its signature over the event exactly as it sent it; a parsed and re-serialised
    // event (1.0 read back as 1, another key order, escapes) fails verification. So the raw body is
    // spliced into the request as it came, which is valid JSON because it just parsed.
    const prefix = JSON.stringify({ ...fields, webhook_id: options.webhookId });
    const body = `${prefix.slice(0, -1)},"webhook_event":${text}}`;
    const answer = await call("POST", "/v1/notifications/verify-webhook-signature", { body });
    if (answer.status >= 500) throw outage(answer, "webhook verification");
    // Our credentials refused is our fault, not the sender's: thrown as an error, so the delivery is
    // answered 5xx and PayPal sends it again once the configuration is fixed.
    if (answer.status === 401 || answer.status === 403) throw refusal(answer);
    if (answer.status !== 200)
      throw new InvalidWebhookSignature(`PayPal refused to verify: ${refusal(answer).issue}`);
    const verdict = verificationSchema.safeParse(answer.body);
    if (!verdict.success || verdict.data.verification_status !== "SUCCESS")
      throw new InvalidWebhookSignature(`PayPal answered ${verdict.data?.verification_status ?? "nothing"}`);
    return parsed.data;
  }

  function reduce(event: z.infer<typeof eventSchema>): PaymentEvent {
    const eventId = event.id;
    const ignored: PaymentEvent = { eventId, kind: "ignored", type: event.event_type };
    switch (event.event_type) {
      case "PAYMENT.CAPTURE.COMPLETED":
      case "PAYMENT.CAPTURE.PENDING":
      case "PAYMENT.CAPTURE.DENIED":
      case "PAYMENT.CAPTURE.DECLINED": {
        const parsed = captureSchema.safeParse(event.resource);
        const orderRef = parsed.data?.supplementary_data?.related_ids?.order_id;
        if (!parsed.success || !orderRef) return ignored;
        const result: PaymentState =
          event.event_type === "PAYMENT.CAPTURE.COMPLETED" || event.event_type === "PAYMENT.CAPTURE.PENDING"
            ? captureState(parsed.data)
            : {
                state: "failed",
                reason: parsed.data.status_details?.reason
                  ? `PayPal declined the capture (${parsed.data.status_details.reason})`
                  : "PayPal declined the capture",
              };
        return {
          eventId,
          kind: "payment",
          providerRef: orderRef,
          orderId: parsed.data.custom_id ?? null,
          result,
        };
      }
      case "CHECKOUT.ORDER.APPROVED": {
        // Approved is not paid: the buyer's return or the reconciliation job captures it.
        const parsed = orderSchema.safeParse(event.resource);
        if (!parsed.success) return ignored;
        return {
          eventId,
          kind: "payment",
          providerRef: parsed.data.id,
          orderId: parsed.data.purchase_units?.[0]?.custom_id ?? null,
          result: { state: "pending" },
        };
      }
      case "PAYMENT.CAPTURE.REFUNDED":
      case "PAYMENT.CAPTURE.REVERSED": {
        // Payments v2 has no refund events of its own: both carry the refund as their resource.
        const parsed = refundSchema.safeParse(event.resource);
        if (!parsed.success) return ignored;
        return {
          eventId,
          kind: "refund",
          providerRefundRef: parsed.data.id,
          // A reversal (PayPal taking the money back, e.g. after a dispute) carries no id of ours.
          refundId: parsed.data.custom_id ?? parsed.data.invoice_id ?? null,
          result: refundState(parsed.data.status, parsed.data.status_details?.reason),
        };
      }
      case "VAULT.PAYMENT-TOKEN.CREATED":
        // The payment token is made by our own `completeSetup` (from the buyer's return or a lookup),
        // never by PayPal alone, so this event brings nothing new. Nor could it be tied to our setup:
        // PayPal's payment token resource names the token, its customer and, for a token saved during a
        // purchase, the order (`metadata.order_id`), never the setup token it was made from.
        return ignored;
      default:
        return ignored;
    }
  }

  return {
    name: "paypal",

    async start(payment) {
      const body = {
        intent: "CAPTURE",
        purchase_units: [
          {
            custom_id: payment.orderId,
            invoice_id: payment.orderId,
            description: payment.description.slice(0, MAX_DESCRIPTION),
            amount: { currency_code: "USD", value: centsToValue(payment.amountCents) },
          },
        ],
        payment_source: {
          paypal: {
            email_address: payment.email,
            experience_context: {
              return_url: payment.returnUrl,
              cancel_url: payment.cancelUrl,
              user_action: "PAY_NOW",
              // The billing address is ours (the checkout form); PayPal need not ask for one.
              shipping_preference: "NO_SHIPPING",
            },
          },
        },
      };
      const answer = await call("POST", "/v2/checkout/orders", {
        body: JSON.stringify(body),
        requestId: payment.idempotencyKey,
      });
      if (answer.status >= 500) throw outage(answer, "order creation");
      if (answer.status !== 200 && answer.status !== 201) throw refusal(answer);
      const order = orderSchema.parse(answer.body);
      const link =
        order.links?.find((l) => l.rel === "payer-action") ?? order.links?.find((l) => l.rel === "approve");
      if (!link) throw new Error(`PayPal order ${order.id} came back without a page for the buyer`);
      return { providerRef: order.id, redirectUrl: link.href };
    },

    // The return's `token` is the PayPal order id; the one stored with our order (`providerRef`) is
    // what is captured, so an edited return URL cannot point the capture at another order.
    complete: (providerRef) => settle(providerRef),

    lookup: (providerRef) => settle(providerRef),

    async parseWebhook(rawBody, headers) {
      return reduce(await verify(rawBody, headers));
    },

    async refund(request): Promise<RefundResult> {
      const order = await getOrder(request.providerRef);
      const captured = order
        ? capturesOf(order).find((c) => ["COMPLETED", "PARTIALLY_REFUNDED", "REFUNDED"].includes(c.status))
        : undefined;
      if (!captured)
        return {
          providerRefundRef: "",
          state: "failed",
          reason: "PayPal holds no captured payment for this order",
        };
      const answer = await call("POST", `/v2/payments/captures/${encodeURIComponent(captured.id)}/refund`, {
        body: JSON.stringify({
          amount: { currency_code: "USD", value: centsToValue(request.amountCents) },
          custom_id: request.refundId,
          invoice_id: request.refundId,
        }),
        requestId: `refund:${request.refundId}`,
      });
      if (answer.status >= 500) throw outage(answer, "refund");
      if (answer.status !== 200 && answer.status !== 201) {
        const error = refusal(answer);
        if (answer.status === 401 || answer.status === 403) throw error;
        return { providerRefundRef: "", state: "failed", reason: `${error.description} (${error.issue})` };
      }
      const refund = refundSchema.parse(answer.body);
      return { providerRefundRef: refund.id, ...refundState(refund.status, refund.status_details?.reason) };
    },

    async startSetup(setup) {
      if (setup.kind !== "paypal")
        throw new Error("PayPal saves PayPal accounts only; cards are saved through Stripe");
      const body = {
        payment_source: {
          paypal: {
            usage_type: "MERCHANT",
            customer_type: "CONSUMER",
            // Two marketplace accounts may share one PayPal account (a household, a company); each needs a
            // token of its own under its own customer.
            permit_multiple_payment_tokens: true,
            // No `vault_instruction`: its default (ON_CREATE_PAYMENT_TOKENS) leaves the payment token to our
            // explicit exchange in `completeSetup`, the documented flow; PayPal marks the field deprecated.
            experience_context: {
              return_url: setup.returnUrl,
              cancel_url: setup.cancelUrl,
              // Nothing is shipped: PayPal need not ask the buyer for an address.
              shipping_preference: "NO_SHIPPING",
            },
          },
        },
        // A returning buyer's earlier customer, so all their saved accounts sit under one customer.
        ...(setup.customerRef ? { customer: { id: setup.customerRef } } : {}),
      };
      const answer = await call("POST", "/v3/vault/setup-tokens", {
        body: JSON.stringify(body),
        requestId: `setup:${setup.setupId}`,
      });
      if (answer.status >= 500) throw outage(answer, "setup token creation");
      if (answer.status !== 200 && answer.status !== 201) throw refusal(answer);
      const token = setupTokenSchema.parse(answer.body);
      const link = token.links?.find((l) => l.rel === "approve");
      if (!link) throw new Error(`PayPal setup token ${token.id} came back without a page for the buyer`);
      return {
        providerRef: token.id,
        redirectUrl: link.href,
        customerRef: token.customer?.id ?? setup.customerRef,
      };
    },

    // As with `complete`, the setup token stored with our setup is read, whatever the return's query says.
    async completeSetup(providerRef) {
      const answer = await call("GET", `/v3/vault/setup-tokens/${encodeURIComponent(providerRef)}`);
      // PayPal forgets a setup token that lapses unused: the buyer never approved it.
      if (answer.status === 404) return { state: "cancelled" };
      if (answer.status >= 500) throw outage(answer, "setup token lookup");
      if (answer.status !== 200) throw refusal(answer);
      const setup = setupTokenSchema.parse(answer.body);
      // CREATED, PAYER_ACTION_REQUIRED: the buyer has not agreed at PayPal (yet).
      if (!SETUP_READY.has(setup.status)) return { state: "pending" };
      return vault(setup);
    },

    async forgetSaved({ methodRef }) {
      const answer = await call("DELETE", `/v3/vault/payment-tokens/${encodeURIComponent(methodRef)}`);
      // 204: deleted; 404: PayPal has no such token (deleted before, by us or by the buyer at PayPal).
      if (answer.status === 204 || answer.status === 404) return;
      if (answer.status >= 500) throw outage(answer, "payment token deletion");
      throw refusal(answer);
    },

    async chargeSaved(charge) {
      const body = {
        intent: "CAPTURE",
        purchase_units: [
          {
            custom_id: charge.orderId,
            // As for a page payment: PayPal refuses a second payment of the same order (DUPLICATE_INVOICE_ID).
            invoice_id: charge.orderId,
            description: charge.description.slice(0, MAX_DESCRIPTION),
            amount: { currency_code: "USD", value: centsToValue(charge.amountCents) },
          },
        ],
        payment_source: {
          paypal: {
            vault_id: charge.methodRef,
            // A later payment we start on the buyer's earlier consent. `usage_pattern` is left out: a
            // charge here may be a renewal, a retry or an upgrade, no single pattern.
            stored_credential: { payment_initiator: "MERCHANT", usage: "SUBSEQUENT" },
          },
        },
      };
      const answer = await call("POST", "/v2/checkout/orders", {
        body: JSON.stringify(body),
        requestId: charge.idempotencyKey,
      });
      if (answer.status >= 500) throw outage(answer, "order creation");
      if (answer.status === 200 || answer.status === 201)
        return vaultedCharge(orderSchema.parse(answer.body));
      const error = refusal(answer);
      // Refused, PayPal makes no order. A 404 can only be the payment token, the one resource the request
      // names: deleted by the buyer at PayPal, or never ours.
      return declined(null, error, answer.status === 404 || PAYPAL_HARD_DECLINES.has(error.issue));
    },
  };
}
