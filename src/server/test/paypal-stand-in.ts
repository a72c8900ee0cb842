import { createHash, randomBytes, randomInt, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { freePort } from "#server/test/ports";

/**
 * A stand-in for api-m.paypal.com, for the endpoints the PayPal adapter calls: OAuth2 client
 * credentials, Orders v2 (create, show, capture; also charged to a vaulted PayPal account), Payments v2
 * refunds, Payment Method Tokens v3 (setup tokens, payment tokens) and webhook signature verification.
 * It answers with PayPal's documented shapes, status codes and error bodies, replays a repeated
 * `PayPal-Request-Id`, and only verifies webhook transmissions it issued itself, over the body exactly as
 * it issued it. Tests drive the buyer's side and PayPal's decisions through its controls.
 */

export type WebhookDelivery = {
  /** The headers PayPal sends with a webhook (lower case, as node reads them). */
  headers: Record<string, string>;
  /** The raw body, byte for byte. */
  body: Buffer;
  eventId: string;
};

type Money = { currency_code: string; value: string };
type Json = Record<string, unknown>;

type StoredCapture = {
  id: string;
  orderId: string;
  status: "COMPLETED" | "DECLINED" | "PENDING" | "PARTIALLY_REFUNDED" | "REFUNDED";
  amount: Money;
  customId: string | undefined;
  invoiceId: string | undefined;
  reason: string | undefined;
  createdAt: string;
};

type StoredRefund = {
  id: string;
  captureId: string;
  status: "COMPLETED" | "PENDING";
  amount: Money;
  customId: string | undefined;
  invoiceId: string | undefined;
  createdAt: string;
};

type StoredOrder = {
  id: string;
  status: "PAYER_ACTION_REQUIRED" | "APPROVED" | "COMPLETED" | "VOIDED";
  amount: Money;
  customId: string | undefined;
  invoiceId: string | undefined;
  description: string | undefined;
  email: string | undefined;
  /** Absent for an order charged to a vaulted account: no buyer is sent anywhere. */
  returnUrl: string | undefined;
  cancelUrl: string | undefined;
  captureIds: string[];
  /** What PayPal will decide when this order is captured. */
  captureOutcome: "complete" | "instrument-declined" | "declined" | "pending";
  /** The payment token the order was charged to, for an order made with `payment_source.paypal.vault_id`. */
  vault: { tokenId: string; customerId: string; payerId: string } | undefined;
  createdAt: string;
};

/**
 * A setup token: PayPal's temporary record of a buyer agreeing to save their account. Created awaiting
 * the buyer (PAYER_ACTION_REQUIRED), APPROVED once they agreed at PayPal, VAULTED once a payment token
 * was made from it (which can happen once).
 */
type StoredSetupToken = {
  id: string;
  status: "PAYER_ACTION_REQUIRED" | "APPROVED" | "VAULTED";
  customerId: string;
  usageType: string;
  customerType: string;
  permitMultiplePaymentTokens: boolean;
  returnUrl: string;
  cancelUrl: string;
  /** The PayPal account that approved, once one did. */
  payer: { email: string; payerId: string } | undefined;
  createdAt: string;
};

/**
 * How PayPal answers an order charged to a vaulted account: completed at once with a capture that is
 * COMPLETED (the usual answer), held PENDING or DECLINED; left APPROVED for the merchant to capture; or
 * refused outright with a 422 issue (INSTRUMENT_DECLINED, PAYER_ACCOUNT_LOCKED_OR_CLOSED…), no order made.
 */
export type VaultedChargeOutcome = "complete" | "pending" | "declined" | "approved" | { issue: string };

/** A payment token: the saved PayPal account, charged later with `vault_id`. */
type StoredPaymentToken = {
  id: string;
  setupTokenId: string;
  customerId: string;
  usageType: string;
  customerType: string;
  permitMultiplePaymentTokens: boolean;
  email: string;
  payerId: string;
  chargeOutcome: VaultedChargeOutcome;
  createdAt: string;
};

type Transmission = {
  headers: Record<string, string>;
  bodyHash: string;
  refused: boolean;
};

type Answer = { status: number; body: unknown };

/** What PayPal's Orders v2 says for the refusals a vaulted charge meets (a test may name any other issue). */
const REFUSALS: Record<string, string> = {
  INSTRUMENT_DECLINED:
    "The instrument presented was either declined by the processor or bank, or it can't be used for this payment.",
  TRANSACTION_REFUSED: "The request was refused.",
  PAYER_ACCOUNT_LOCKED_OR_CLOSED: "The payer account cannot be used for this transaction.",
  PAYER_ACCOUNT_RESTRICTED: "PAYER_ACCOUNT_RESTRICTED",
  PAYER_CANNOT_PAY: "Combination of payer and payee settings mean that this buyer cannot pay this seller.",
  AGREEMENT_ALREADY_CANCELLED: "The requested agreement is already canceled.",
};

const ERRORS = {
  400: ["INVALID_REQUEST", "Request is not well-formed, syntactically incorrect, or violates schema."],
  404: ["RESOURCE_NOT_FOUND", "The specified resource does not exist."],
  422: [
    "UNPROCESSABLE_ENTITY",
    "The requested action could not be performed, semantically incorrect, or failed business validation.",
  ],
} as const;

function error(status: keyof typeof ERRORS, issue: string, description: string, field?: string): Answer {
  const [name, message] = ERRORS[status];
  return {
    status,
    body: {
      name,
      message,
      debug_id: randomBytes(7).toString("hex"),
      details: [{ ...(field ? { field, location: "body" } : {}), issue, description }],
      links: [
        { href: `https://developer.paypal.com/docs/api/orders/v2/#error-${issue}`, rel: "information_link" },
      ],
    },
  };
}

/** PayPal's ids: 17 upper-case letters and digits. */
function paypalId(): string {
  const alphabet = "ABCDEFGHJKLMNPRSTUVWXY0123456789";
  return Array.from(randomBytes(17), (b) => alphabet[b % alphabet.length]).join("");
}

/** A vault payment token id, as PayPal writes them: short, lower case ("8kk8451t"). */
function paymentTokenId(): string {
  const alphabet = "abcdefghjkmnpqrstvwxyz0123456789";
  return Array.from(randomBytes(8), (b) => alphabet[b % alphabet.length]).join("");
}

const now = () => new Date().toISOString().replace(/\.\d{3}Z$/, "Z");
const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");
/** "12.34" → 1234, exactly; the stand-in only ever holds values it checked against /^\d+\.\d{2}$/. */
const cents = (value: string) => Number(value.replace(".", ""));

/**
 * The exact text of one top-level member of a JSON object, as it was written: PayPal verifies a
 * webhook's signature over the event as it sent it, so the stand-in must not re-serialise it either.
 */
export function rawMember(json: string, key: string): string | null {
  let i = 0;
  const ws = () => {
    while (i < json.length && /\s/.test(json[i] ?? "")) i++;
  };
  const skipString = () => {
    i++;
    while (i < json.length && json[i] !== '"') i += json[i] === "\\" ? 2 : 1;
    i++;
  };
  const skipValue = () => {
    if (json[i] === '"') return skipString();
    if (json[i] === "{" || json[i] === "[") {
      let depth = 0;
      while (i < json.length) {
        const ch = json[i];
        if (ch === '"') {
          skipString();
          continue;
        }
        if (ch === "{" || ch === "[") depth++;
        if (ch === "}" || ch === "]") depth--;
        i++;
        if (depth === 0) return;
      }
      return;
    }
    while (i < json.length && !/[\s,}\]]/.test(json[i] ?? "")) i++;
  };
  ws();
  if (json[i] !== "{") return null;
  i++;
  for (;;) {
    ws();
    if (json[i] !== '"') return null;
    const keyStart = i;
    skipString();
    const name = JSON.parse(json.slice(keyStart, i)) as string;
    ws();
    if (json[i] !== ":") return null;
    i++;
    ws();
    const valueStart = i;
    skipValue();
    if (name === key) return json.slice(valueStart, i);
    ws();
    if (json[i] !== ",") return null;
    i++;
  }
}

export type PayPalStandIn = Awaited<ReturnType<typeof startPayPalStandIn>>;

export async function startPayPalStandIn(
  options: {
    clientId?: string;
    clientSecret?: string;
    webhookId?: string;
    tokenLifetimeSeconds?: number;
  } = {},
) {
  const clientId = options.clientId ?? `client-${randomUUID()}`;
  const clientSecret = options.clientSecret ?? randomBytes(24).toString("base64url");
  const webhookId = options.webhookId ?? paypalId();
  const tokenLifetimeSeconds = options.tokenLifetimeSeconds ?? 32_400;
  const port = await freePort();
  const apiBase = `http://127.0.0.1:${port}`;

  const orders = new Map<string, StoredOrder>();
  const captures = new Map<string, StoredCapture>();
  const refunds = new Map<string, StoredRefund>();
  const tokens = new Map<string, number>();
  const setupTokens = new Map<string, StoredSetupToken>();
  const paymentTokens = new Map<string, StoredPaymentToken>();
  const replays = new Map<string, Answer>();
  const transmissions = new Map<string, Transmission>();
  let nextRefundFailure: { issue: string; description: string } | null = null;
  let holdNextRefund = false;
  /** Every call that reached the stand-in, in order, with its JSON body (null if none); a replayed one is marked. */
  const calls: {
    method: string;
    path: string;
    requestId: string | null;
    replayed: boolean;
    body: Json | null;
  }[] = [];
  /** Paths whose next call PayPal fails with a 500, as in an outage. */
  const broken = new Set<string>();
  let tokensIssued = 0;
  /** APIs this app may not call, as when the app's PayPal settings lack a feature (webhooks, refunds). */
  const forbidden = new Set<string>();

  const captureJson = (capture: StoredCapture): Json => ({
    id: capture.id,
    status: capture.status,
    ...(capture.reason ? { status_details: { reason: capture.reason } } : {}),
    amount: capture.amount,
    final_capture: true,
    ...(capture.customId ? { custom_id: capture.customId } : {}),
    ...(capture.invoiceId ? { invoice_id: capture.invoiceId } : {}),
    supplementary_data: { related_ids: { order_id: capture.orderId } },
    create_time: capture.createdAt,
    update_time: capture.createdAt,
    links: [
      { href: `${apiBase}/v2/payments/captures/${capture.id}`, rel: "self", method: "GET" },
      { href: `${apiBase}/v2/payments/captures/${capture.id}/refund`, rel: "refund", method: "POST" },
      { href: `${apiBase}/v2/checkout/orders/${capture.orderId}`, rel: "up", method: "GET" },
    ],
  });

  const refundJson = (refund: StoredRefund): Json => ({
    id: refund.id,
    status: refund.status,
    amount: refund.amount,
    ...(refund.customId ? { custom_id: refund.customId } : {}),
    ...(refund.invoiceId ? { invoice_id: refund.invoiceId } : {}),
    create_time: refund.createdAt,
    update_time: refund.createdAt,
    links: [
      { href: `${apiBase}/v2/payments/refunds/${refund.id}`, rel: "self", method: "GET" },
      { href: `${apiBase}/v2/payments/captures/${refund.captureId}`, rel: "up", method: "GET" },
    ],
  });

  const orderJson = (order: StoredOrder): Json => {
    const orderCaptures = order.captureIds.map((id) => captureJson(captures.get(id)!));
    const links: Json[] = [{ href: `${apiBase}/v2/checkout/orders/${order.id}`, rel: "self", method: "GET" }];
    if (order.status === "PAYER_ACTION_REQUIRED")
      links.push({ href: `${apiBase}/checkoutnow?token=${order.id}`, rel: "payer-action", method: "GET" });
    if (order.status === "APPROVED")
      links.push({
        href: `${apiBase}/v2/checkout/orders/${order.id}/capture`,
        rel: "capture",
        method: "POST",
      });
    return {
      id: order.id,
      intent: "CAPTURE",
      status: order.status,
      create_time: order.createdAt,
      payment_source: {
        paypal: {
          ...(order.email ? { email_address: order.email } : {}),
          ...(order.vault
            ? {
                account_id: order.vault.payerId,
                attributes: {
                  vault: {
                    id: order.vault.tokenId,
                    status: "VAULTED",
                    customer: { id: order.vault.customerId },
                  },
                },
              }
            : {}),
        },
      },
      purchase_units: [
        {
          reference_id: "default",
          amount: order.amount,
          ...(order.customId ? { custom_id: order.customId } : {}),
          ...(order.invoiceId ? { invoice_id: order.invoiceId } : {}),
          ...(order.description ? { description: order.description } : {}),
          ...(orderCaptures.length > 0 ? { payments: { captures: orderCaptures } } : {}),
        },
      ],
      links,
    };
  };

  function createOrder(body: Json): Answer {
    if (body.intent !== "CAPTURE")
      return error(400, "INVALID_PARAMETER_VALUE", "Only CAPTURE is supported here.", "/intent");
    const units = body.purchase_units;
    if (!Array.isArray(units) || units.length !== 1)
      return error(400, "MISSING_REQUIRED_PARAMETER", "One purchase unit is required.", "/purchase_units");
    const unit = units[0] as Json;
    const amount = unit.amount as Money | undefined;
    if (
      amount?.currency_code !== "USD" ||
      !/^\d+\.\d{2}$/.test(amount.value ?? "") ||
      cents(amount.value) <= 0
    )
      return error(
        400,
        "INVALID_PARAMETER_VALUE",
        "The amount must be a positive USD value.",
        "/purchase_units/@reference_id=='default'/amount/value",
      );
    const paypal = ((body.payment_source as Json | undefined)?.paypal ?? {}) as Json;
    if (paypal.vault_id !== undefined) return chargeVaulted(paypal, unit, amount);
    const context = (paypal.experience_context ?? {}) as Json;
    if (typeof context.return_url !== "string" || typeof context.cancel_url !== "string")
      return error(
        400,
        "MISSING_REQUIRED_PARAMETER",
        "return_url and cancel_url are required.",
        "/payment_source/paypal/experience_context",
      );
    const order: StoredOrder = {
      id: paypalId(),
      status: "PAYER_ACTION_REQUIRED",
      amount: { currency_code: "USD", value: amount.value },
      customId: unit.custom_id as string | undefined,
      invoiceId: unit.invoice_id as string | undefined,
      description: unit.description as string | undefined,
      email: paypal.email_address as string | undefined,
      returnUrl: context.return_url,
      cancelUrl: context.cancel_url,
      captureIds: [],
      captureOutcome: "complete",
      vault: undefined,
      createdAt: now(),
    };
    orders.set(order.id, order);
    return { status: 200, body: orderJson(order) };
  }

  /**
   * An order charged to a payment token, without the buyer: PayPal decides at once and, as a rule,
   * answers the order COMPLETED with its capture; refused, it makes no order at all.
   */
  function chargeVaulted(paypal: Json, unit: Json, amount: Money): Answer {
    const token = typeof paypal.vault_id === "string" ? paymentTokens.get(paypal.vault_id) : undefined;
    if (!token)
      return error(
        404,
        "INVALID_RESOURCE_ID",
        "Specified resource ID does not exist. Please check the resource ID and try again.",
        "/payment_source/paypal/vault_id",
      );
    const outcome = token.chargeOutcome;
    if (typeof outcome === "object")
      return error(
        422,
        outcome.issue,
        REFUSALS[outcome.issue] ?? `The payment was refused (${outcome.issue}).`,
      );
    const order: StoredOrder = {
      id: paypalId(),
      status: "APPROVED",
      amount: { currency_code: "USD", value: amount.value },
      customId: unit.custom_id as string | undefined,
      invoiceId: unit.invoice_id as string | undefined,
      description: unit.description as string | undefined,
      email: token.email,
      returnUrl: undefined,
      cancelUrl: undefined,
      captureIds: [],
      captureOutcome: outcome === "approved" ? "complete" : outcome,
      vault: { tokenId: token.id, customerId: token.customerId, payerId: token.payerId },
      createdAt: now(),
    };
    orders.set(order.id, order);
    if (outcome === "approved") return { status: 201, body: orderJson(order) };
    return captureOrder(order);
  }

  const setupTokenJson = (setup: StoredSetupToken): Json => {
    const links: Json[] = [
      {
        href: `${apiBase}/v3/vault/setup-tokens/${setup.id}`,
        rel: "self",
        method: "GET",
        encType: "application/json",
      },
    ];
    if (setup.status === "PAYER_ACTION_REQUIRED")
      links.push({
        href: `${apiBase}/agreements/approve?approval_session_id=${setup.id}`,
        rel: "approve",
        method: "GET",
      });
    if (setup.status === "APPROVED")
      links.push({
        href: `${apiBase}/v3/vault/payment-tokens`,
        rel: "confirm",
        method: "POST",
        encType: "application/json",
      });
    return {
      id: setup.id,
      customer: { id: setup.customerId },
      status: setup.status,
      payment_source: {
        paypal: {
          usage_type: setup.usageType,
          customer_type: setup.customerType,
          permit_multiple_payment_tokens: setup.permitMultiplePaymentTokens,
          ...(setup.payer ? { email_address: setup.payer.email, payer_id: setup.payer.payerId } : {}),
        },
      },
      links,
    };
  };

  const paymentTokenJson = (token: StoredPaymentToken): Json => ({
    id: token.id,
    customer: { id: token.customerId },
    payment_source: {
      paypal: {
        usage_type: token.usageType,
        customer_type: token.customerType,
        permit_multiple_payment_tokens: token.permitMultiplePaymentTokens,
        email_address: token.email,
        payer_id: token.payerId,
      },
    },
    links: [
      {
        href: `${apiBase}/v3/vault/payment-tokens/${token.id}`,
        rel: "self",
        method: "GET",
        encType: "application/json",
      },
      {
        href: `${apiBase}/v3/vault/payment-tokens/${token.id}`,
        rel: "delete",
        method: "DELETE",
        encType: "application/json",
      },
    ],
  });

  /** Only PayPal wallets are saved through this stand-in; cards are saved through Stripe. */
  function createSetupToken(body: Json): Answer {
    const paypal = (body.payment_source as Json | undefined)?.paypal as Json | undefined;
    if (!paypal)
      return error(
        400,
        "MISSING_REQUIRED_PARAMETER",
        "A paypal payment source is required.",
        "/payment_source",
      );
    if (typeof paypal.usage_type !== "string")
      return error(
        400,
        "MISSING_REQUIRED_PARAMETER",
        "usage_type is required.",
        "/payment_source/paypal/usage_type",
      );
    const context = (paypal.experience_context ?? {}) as Json;
    if (typeof context.return_url !== "string" || typeof context.cancel_url !== "string")
      return error(
        400,
        "MISSING_REQUIRED_PARAMETER",
        "return_url and cancel_url are required.",
        "/payment_source/paypal/experience_context",
      );
    const customer = body.customer as Json | undefined;
    const setup: StoredSetupToken = {
      id: paypalId(),
      status: "PAYER_ACTION_REQUIRED",
      // PayPal makes a customer for a first-time payer, and answers its id.
      customerId:
        typeof customer?.id === "string" ? customer.id : String(randomInt(100_000_000, 999_999_999)),
      usageType: paypal.usage_type,
      customerType: typeof paypal.customer_type === "string" ? paypal.customer_type : "CONSUMER",
      permitMultiplePaymentTokens: paypal.permit_multiple_payment_tokens === true,
      returnUrl: context.return_url,
      cancelUrl: context.cancel_url,
      payer: undefined,
      createdAt: now(),
    };
    setupTokens.set(setup.id, setup);
    return { status: 201, body: setupTokenJson(setup) };
  }

  function createPaymentToken(body: Json): Answer {
    const source = (body.payment_source as Json | undefined)?.token as Json | undefined;
    if (typeof source?.id !== "string" || source.type !== "SETUP_TOKEN")
      return error(
        400,
        "INVALID_PARAMETER_VALUE",
        "A setup token is required to make a payment token.",
        "/payment_source/token",
      );
    const setup = setupTokens.get(source.id);
    if (!setup) return notFound();
    if (setup.status === "PAYER_ACTION_REQUIRED")
      return error(
        422,
        "PAYER_ACTION_REQUIRED",
        "Please make sure the setup token is approved. Please complete the payer approval flow.",
      );
    if (setup.status === "VAULTED" || !setup.payer)
      return error(
        422,
        "SETUP_TOKEN_ALREADY_TOKENIZED",
        "The setup token has been used previously to generate a payment token.",
      );
    const token: StoredPaymentToken = {
      id: paymentTokenId(),
      setupTokenId: setup.id,
      customerId: setup.customerId,
      usageType: setup.usageType,
      customerType: setup.customerType,
      permitMultiplePaymentTokens: setup.permitMultiplePaymentTokens,
      email: setup.payer.email,
      payerId: setup.payer.payerId,
      chargeOutcome: "complete",
      createdAt: now(),
    };
    paymentTokens.set(token.id, token);
    setup.status = "VAULTED";
    return { status: 201, body: paymentTokenJson(token) };
  }

  function captureOrder(order: StoredOrder): Answer {
    if (order.status === "COMPLETED")
      return error(
        422,
        "ORDER_ALREADY_CAPTURED",
        "Order already captured. If 'intent=CAPTURE' only one capture per order is allowed.",
      );
    if (order.status !== "APPROVED")
      return error(422, "ORDER_NOT_APPROVED", "Payer has not yet approved the Order for payment.");
    if (order.captureOutcome === "instrument-declined")
      return error(
        422,
        "INSTRUMENT_DECLINED",
        "The instrument presented was either declined by the processor or bank, or it can't be used for this payment.",
      );
    if (order.invoiceId) {
      for (const other of orders.values()) {
        if (other === order || other.invoiceId !== order.invoiceId) continue;
        if (other.captureIds.some((id) => captures.get(id)?.status !== "DECLINED"))
          return error(
            422,
            "DUPLICATE_INVOICE_ID",
            "Duplicate Invoice ID detected. To avoid a potential duplicate transaction your account setting requires that Invoice Id be unique for each transaction.",
          );
      }
    }
    const capture: StoredCapture = {
      id: paypalId(),
      orderId: order.id,
      status:
        order.captureOutcome === "declined"
          ? "DECLINED"
          : order.captureOutcome === "pending"
            ? "PENDING"
            : "COMPLETED",
      amount: order.amount,
      customId: order.customId,
      invoiceId: order.invoiceId,
      reason: order.captureOutcome === "pending" ? "PENDING_REVIEW" : undefined,
      createdAt: now(),
    };
    captures.set(capture.id, capture);
    order.captureIds.push(capture.id);
    order.status = "COMPLETED";
    return { status: 201, body: orderJson(order) };
  }

  function refundCapture(capture: StoredCapture, body: Json): Answer {
    if (nextRefundFailure) {
      const { issue, description } = nextRefundFailure;
      nextRefundFailure = null;
      return error(422, issue, description);
    }
    if (capture.status === "REFUNDED")
      return error(422, "CAPTURE_FULLY_REFUNDED", "The capture has already been fully refunded.");
    if (capture.status !== "COMPLETED" && capture.status !== "PARTIALLY_REFUNDED")
      return error(422, "CANNOT_BE_REFUNDED", "The capture cannot be refunded in its state.");
    const amount = (body.amount as Money | undefined) ?? capture.amount;
    if (amount.currency_code !== "USD" || !/^\d+\.\d{2}$/.test(amount.value ?? ""))
      return error(400, "INVALID_PARAMETER_VALUE", "The amount must be a USD value.", "/amount/value");
    const refunded = [...refunds.values()]
      .filter((r) => r.captureId === capture.id)
      .reduce((sum, r) => sum + cents(r.amount.value), 0);
    const remaining = cents(capture.amount.value) - refunded;
    if (cents(amount.value) > remaining)
      return error(
        422,
        "REFUND_AMOUNT_EXCEEDED",
        "The refund amount must be less than or equal to the capture amount that has not yet been refunded.",
      );
    const refund: StoredRefund = {
      id: paypalId(),
      captureId: capture.id,
      status: holdNextRefund ? "PENDING" : "COMPLETED",
      amount: { currency_code: "USD", value: amount.value },
      customId: body.custom_id as string | undefined,
      invoiceId: body.invoice_id as string | undefined,
      createdAt: now(),
    };
    holdNextRefund = false;
    refunds.set(refund.id, refund);
    capture.status = cents(amount.value) === remaining ? "REFUNDED" : "PARTIALLY_REFUNDED";
    return { status: 201, body: refundJson(refund) };
  }

  function verify(raw: string): Answer {
    let body: Json;
    try {
      body = JSON.parse(raw) as Json;
    } catch {
      return error(400, "MALFORMED_REQUEST_JSON", "The request JSON is not well formed.");
    }
    for (const field of [
      "auth_algo",
      "cert_url",
      "transmission_id",
      "transmission_sig",
      "transmission_time",
      "webhook_id",
    ]) {
      if (typeof body[field] !== "string" || body[field] === "")
        return error(400, "MISSING_REQUIRED_PARAMETER", `${field} is required.`, `/${field}`);
    }
    const event = rawMember(raw, "webhook_event");
    if (!event)
      return error(400, "MISSING_REQUIRED_PARAMETER", "webhook_event is required.", "/webhook_event");
    const sent = transmissions.get(body.transmission_id as string);
    const verified =
      sent !== undefined &&
      !sent.refused &&
      body.webhook_id === webhookId &&
      body.auth_algo === sent.headers["paypal-auth-algo"] &&
      body.cert_url === sent.headers["paypal-cert-url"] &&
      body.transmission_sig === sent.headers["paypal-transmission-sig"] &&
      body.transmission_time === sent.headers["paypal-transmission-time"] &&
      sha256(event) === sent.bodyHash;
    return { status: 200, body: { verification_status: verified ? "SUCCESS" : "FAILURE" } };
  }

  function issueToken(request: IncomingMessage, raw: string): Answer {
    const expected = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}`;
    if (request.headers.authorization !== expected)
      return {
        status: 401,
        body: { error: "invalid_client", error_description: "Client Authentication failed" },
      };
    if (new URLSearchParams(raw).get("grant_type") !== "client_credentials")
      return {
        status: 400,
        body: { error: "unsupported_grant_type", error_description: "Grant Type is NULL" },
      };
    const accessToken = `A21AA${randomBytes(32).toString("base64url")}`;
    tokens.set(accessToken, Date.now() + tokenLifetimeSeconds * 1000);
    tokensIssued++;
    return {
      status: 200,
      body: {
        scope:
          "https://uri.paypal.com/services/payments/payment https://uri.paypal.com/services/applications/webhooks",
        access_token: accessToken,
        token_type: "Bearer",
        app_id: "APP-80W284485P519543T",
        expires_in: tokenLifetimeSeconds,
        nonce: `${now()}${randomBytes(8).toString("hex")}`,
      },
    };
  }

  function authorised(request: IncomingMessage): boolean {
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1];
    const expiresAt = bearer ? tokens.get(bearer) : undefined;
    return expiresAt !== undefined && Date.now() < expiresAt;
  }

  const notFound = () =>
    error(
      404,
      "INVALID_RESOURCE_ID",
      "Specified resource ID does not exist. Please check the resource ID and try again.",
    );
  const malformed = () => error(400, "MALFORMED_REQUEST_JSON", "The request JSON is not well formed.");

  function route(method: string, path: string, raw: string): Answer {
    const parse = (): Json | null => {
      try {
        return raw ? (JSON.parse(raw) as Json) : {};
      } catch {
        return null;
      }
    };
    const [, api, id, action] =
      /^(\/v2\/checkout\/orders|\/v2\/payments\/captures)(?:\/([^/]+))?(?:\/([a-z]+))?$/.exec(path) ?? [];
    const resourceId = id ? decodeURIComponent(id) : undefined;
    if (api === "/v2/checkout/orders" && !resourceId && method === "POST") {
      const body = parse();
      return body ? createOrder(body) : malformed();
    }
    if (api === "/v2/checkout/orders" && resourceId && !action && method === "GET") {
      const order = orders.get(resourceId);
      return order ? { status: 200, body: orderJson(order) } : notFound();
    }
    if (api === "/v2/checkout/orders" && resourceId && action === "capture" && method === "POST") {
      const order = orders.get(resourceId);
      return order ? captureOrder(order) : notFound();
    }
    if (api === "/v2/payments/captures" && resourceId && action === "refund" && method === "POST") {
      const capture = captures.get(resourceId);
      const body = parse();
      if (!body) return malformed();
      return capture ? refundCapture(capture, body) : notFound();
    }
    const vault = /^\/v3\/vault\/(setup-tokens|payment-tokens)(?:\/([^/]+))?$/.exec(path);
    if (vault?.[1] === "setup-tokens" && !vault[2] && method === "POST") {
      const body = parse();
      return body ? createSetupToken(body) : malformed();
    }
    if (vault?.[1] === "setup-tokens" && vault[2] && method === "GET") {
      const setup = setupTokens.get(decodeURIComponent(vault[2]));
      return setup ? { status: 200, body: setupTokenJson(setup) } : notFound();
    }
    if (vault?.[1] === "payment-tokens" && !vault[2] && method === "POST") {
      const body = parse();
      return body ? createPaymentToken(body) : malformed();
    }
    if (vault?.[1] === "payment-tokens" && vault[2] && method === "GET") {
      const token = paymentTokens.get(decodeURIComponent(vault[2]));
      return token ? { status: 200, body: paymentTokenJson(token) } : notFound();
    }
    if (vault?.[1] === "payment-tokens" && vault[2] && method === "DELETE") {
      // PayPal answers 204 with no body; the token is gone, and charging it answers as for any unknown one.
      return paymentTokens.delete(decodeURIComponent(vault[2])) ? { status: 204, body: null } : notFound();
    }
    if (method === "POST" && path === "/v1/notifications/verify-webhook-signature") return verify(raw);
    return error(404, "INVALID_RESOURCE_ID", `No ${method} ${path} here.`);
  }

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    const method = request.method ?? "GET";
    const path = new URL(request.url ?? "/", apiBase).pathname;
    const requestId = (request.headers["paypal-request-id"] as string | undefined) ?? null;
    const replayKey = requestId && method === "POST" ? `${path}|${requestId}` : null;
    const replay = replayKey ? replays.get(replayKey) : undefined;
    let body: Json | null = null;
    try {
      const parsed: unknown = raw ? JSON.parse(raw) : null;
      body = parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Json) : null;
    } catch {
      body = null;
    }
    calls.push({ method, path, requestId, replayed: replay !== undefined, body });

    let answer: Answer;
    if (method === "POST" && path === "/v1/oauth2/token") answer = issueToken(request, raw);
    else if (!authorised(request))
      answer = {
        status: 401,
        body: {
          name: "AUTHENTICATION_FAILURE",
          message:
            "Authentication failed due to invalid authentication credentials or a missing Authorization header.",
          links: [{ href: "https://developer.paypal.com/docs/api/overview/#error", rel: "information_link" }],
        },
      };
    else if (forbidden.has(path))
      answer = {
        status: 403,
        body: {
          name: "NOT_AUTHORIZED",
          message: "Authorization failed due to insufficient permissions.",
          debug_id: randomBytes(7).toString("hex"),
          details: [
            {
              issue: "PERMISSION_DENIED",
              description: "You do not have permission to access or perform operations on this resource.",
            },
          ],
        },
      };
    else if (broken.delete(path))
      // A failure is not an answer PayPal keeps: the same request id tried again is carried out.
      answer = {
        status: 500,
        body: {
          name: "INTERNAL_SERVER_ERROR",
          message: "An internal server error occurred.",
          debug_id: randomBytes(7).toString("hex"),
        },
      };
    else if (replay) answer = replay;
    else {
      answer = route(method, path, raw);
      // PayPal keeps the answer to a request id and gives it again, whatever the repeat carries.
      if (replayKey) replays.set(replayKey, answer);
    }
    response.writeHead(answer.status, {
      ...(answer.status === 204 ? {} : { "content-type": "application/json" }),
      "paypal-debug-id": randomBytes(7).toString("hex"),
    });
    response.end(answer.status === 204 ? undefined : JSON.stringify(answer.body));
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((cause: unknown) => {
      response.writeHead(500, { "content-type": "application/json" });
      response.end(JSON.stringify({ name: "INTERNAL_SERVER_ERROR", message: String(cause) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));

  const orderOf = (id: string) => {
    const order = orders.get(id);
    if (!order) throw new Error(`The stand-in has no PayPal order ${id}`);
    return order;
  };
  const setupOf = (id: string) => {
    const setup = setupTokens.get(id);
    if (!setup) throw new Error(`The stand-in has no setup token ${id}`);
    return setup;
  };
  const paymentTokenOf = (id: string) => {
    const token = paymentTokens.get(id);
    if (!token) throw new Error(`The stand-in has no payment token ${id}`);
    return token;
  };

  /** Builds a delivery as PayPal would post it, and remembers the transmission so it can verify it. */
  function deliver(
    eventType: string,
    resourceType: string,
    resource: Json,
    format: "compact" | "spaced" = "compact",
  ): WebhookDelivery {
    const eventId = `WH-${paypalId()}-${paypalId()}`;
    const event = {
      id: eventId,
      event_version: "1.0",
      create_time: new Date().toISOString(),
      resource_type: resourceType,
      resource_version: "2.0",
      event_type: eventType,
      summary: `${eventType} for the stand-in`,
      resource,
      links: [{ href: `${apiBase}/v1/notifications/webhooks-events/${eventId}`, rel: "self", method: "GET" }],
    };
    const text = format === "spaced" ? JSON.stringify(event, null, 2) : JSON.stringify(event);
    const transmissionId = randomUUID();
    const headers = {
      "content-type": "application/json",
      "paypal-auth-algo": "SHA256withRSA",
      "paypal-cert-url": `${apiBase}/v1/notifications/certs/CERT-360caa42-fca2a594-${randomBytes(4).toString("hex")}`,
      "paypal-transmission-id": transmissionId,
      "paypal-transmission-sig": randomBytes(256).toString("base64"),
      "paypal-transmission-time": now(),
    };
    transmissions.set(transmissionId, { headers, bodyHash: sha256(text), refused: false });
    return { headers, body: Buffer.from(text, "utf8"), eventId };
  }

  return {
    apiBase,
    clientId,
    clientSecret,
    webhookId,
    /** Every call received, in order. */
    calls,
    /** How many access tokens were handed out. */
    get tokensIssued() {
      return tokensIssued;
    },

    /** The order as PayPal's "show order details" answers it. */
    order: (id: string) => orderJson(orderOf(id)),
    orderCount: () => orders.size,
    /** Captures actually made for an order (a replayed capture request makes none). */
    capturesOf: (id: string) => orderOf(id).captureIds.length,
    refundsOf: (orderId: string) =>
      [...refunds.values()].filter((r) => captures.get(r.captureId)?.orderId === orderId).map(refundJson),

    /** The buyer logs in at PayPal and approves the payment. */
    approve(id: string) {
      const order = orderOf(id);
      if (order.status !== "PAYER_ACTION_REQUIRED")
        throw new Error(`Order ${id} is ${order.status}, not awaiting the buyer`);
      order.status = "APPROVED";
    },
    /**
     * How PayPal will answer this order's capture: refused with INSTRUMENT_DECLINED (the order stays
     * approved), a capture with status DECLINED, or a capture held PENDING for review.
     */
    decideCapture(id: string, outcome: StoredOrder["captureOutcome"]) {
      orderOf(id).captureOutcome = outcome;
    },
    /** The setup token as PayPal's "retrieve a setup token" answers it. */
    setupToken: (id: string) => setupTokenJson(setupOf(id)),
    /** The payment token as PayPal's "retrieve a payment token" answers it. */
    paymentToken: (id: string) => paymentTokenJson(paymentTokenOf(id)),
    /** Payment tokens made so far (a replayed request makes none). */
    paymentTokenCount: () => paymentTokens.size,
    /**
     * The buyer follows the setup token's approve link, logs in at PayPal with this account and agrees
     * to save it for later payments: the setup token turns APPROVED, as an order does with `approve`.
     */
    approveSetup(id: string, payer: { email?: string } = {}) {
      const setup = setupOf(id);
      if (setup.status !== "PAYER_ACTION_REQUIRED")
        throw new Error(`Setup token ${id} is ${setup.status}, not awaiting the buyer`);
      setup.status = "APPROVED";
      setup.payer = { email: payer.email ?? "buyer@example.com", payerId: paypalId().slice(0, 13) };
    },
    /** The setup token lapses unused and PayPal forgets it: retrieving it answers 404. */
    expireSetup(id: string) {
      setupOf(id);
      setupTokens.delete(id);
    },
    /** How PayPal will answer the orders charged to this payment token from now on (see `VaultedChargeOutcome`). */
    decideVaultedCharges(tokenId: string, outcome: VaultedChargeOutcome) {
      paymentTokenOf(tokenId).chargeOutcome = outcome;
    },
    /** The next call to this path fails with a 500, as in an outage at PayPal. */
    breakNext(path: string) {
      broken.add(path);
    },
    /** PayPal voids the order (e.g. its authorisation lapsed or risk review refused it). */
    void(id: string) {
      orderOf(id).status = "VOIDED";
    },
    /** The order lapses uncaptured and PayPal forgets it: "show order" answers 404. */
    expire(id: string) {
      orderOf(id);
      orders.delete(id);
    },
    /** The next refund is refused with this issue (e.g. REFUND_NOT_ALLOWED). */
    failNextRefund(issue: string, description: string) {
      nextRefundFailure = { issue, description };
    },
    /** The next refund is accepted as PENDING (e.g. the merchant's balance is short). */
    holdNextRefund() {
      holdNextRefund = true;
    },
    /** Every token handed out so far stops working, as when PayPal revokes or expires one early. */
    revokeTokens() {
      tokens.clear();
    },
    /** Calls to this path are answered 403 NOT_AUTHORIZED, as for an app without the permission. */
    forbid(path: string) {
      forbidden.add(path);
    },
    allow(path: string) {
      forbidden.delete(path);
    },
    /** PayPal answers FAILURE for this transmission (its certificate chain did not check, say). */
    refuseVerification(transmissionId: string) {
      const sent = transmissions.get(transmissionId);
      if (!sent) throw new Error(`No transmission ${transmissionId}`);
      sent.refused = true;
    },

    /** A capture event for the order's capture, e.g. PAYMENT.CAPTURE.COMPLETED. */
    captureEvent(orderId: string, eventType = "PAYMENT.CAPTURE.COMPLETED", format?: "compact" | "spaced") {
      const captureId = orderOf(orderId).captureIds.at(-1);
      if (!captureId) throw new Error(`Order ${orderId} has no capture`);
      return deliver(eventType, "capture", captureJson(captures.get(captureId)!), format);
    },
    /** A refund event (PAYMENT.CAPTURE.REFUNDED) for a refund PayPal made. */
    refundEvent(paypalRefundId: string, eventType = "PAYMENT.CAPTURE.REFUNDED") {
      const refund = refunds.get(paypalRefundId);
      if (!refund) throw new Error(`No refund ${paypalRefundId}`);
      return deliver(eventType, "refund", refundJson(refund));
    },
    /** CHECKOUT.ORDER.APPROVED and other order events. */
    orderEvent(orderId: string, eventType = "CHECKOUT.ORDER.APPROVED") {
      return deliver(eventType, "checkout-order", orderJson(orderOf(orderId)));
    },
    /** VAULT.PAYMENT-TOKEN.CREATED for a payment token, with the token as its resource. */
    paymentTokenEvent(tokenId: string) {
      return deliver(
        "VAULT.PAYMENT-TOKEN.CREATED",
        "payment_token",
        paymentTokenJson(paymentTokenOf(tokenId)),
      );
    },
    /** Any event, for types the adapter ignores. */
    event: deliver,

    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((cause) => (cause ? reject(cause) : resolve()));
      }),
  };
}
