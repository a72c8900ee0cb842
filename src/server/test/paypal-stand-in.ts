import { createHash, randomBytes, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { freePort } from "#server/test/ports";

/**
 * A stand-in for api-m.paypal.com, for the endpoints the PayPal adapter calls: OAuth2 client
 * credentials, Orders v2 (create, show, capture), Payments v2 refunds and webhook signature
 * verification. It answers with PayPal's documented shapes, status codes and error bodies, replays a
 * repeated `PayPal-Request-Id`, and only verifies webhook transmissions it issued itself, over the body
 * exactly as it issued it. Tests drive the buyer's side and PayPal's decisions through its controls.
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
  returnUrl: string;
  cancelUrl: string;
  captureIds: string[];
  /** What PayPal will decide when this order is captured. */
  captureOutcome: "complete" | "instrument-declined" | "declined" | "pending";
  createdAt: string;
};

type Transmission = {
  headers: Record<string, string>;
  bodyHash: string;
  refused: boolean;
};

type Answer = { status: number; body: unknown };

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
  const replays = new Map<string, Answer>();
  const transmissions = new Map<string, Transmission>();
  let nextRefundFailure: { issue: string; description: string } | null = null;
  let holdNextRefund = false;
  /** Every call that reached the stand-in, in order; a replayed one is marked. */
  const calls: { method: string; path: string; requestId: string | null; replayed: boolean }[] = [];
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
      payment_source: { paypal: order.email ? { email_address: order.email } : {} },
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
      createdAt: now(),
    };
    orders.set(order.id, order);
    return { status: 200, body: orderJson(order) };
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
    calls.push({ method, path, requestId, replayed: replay !== undefined });

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
    else if (replay) answer = replay;
    else {
      answer = route(method, path, raw);
      // PayPal keeps the answer to a request id and gives it again, whatever the repeat carries.
      if (replayKey) replays.set(replayKey, answer);
    }
    response.writeHead(answer.status, {
      "content-type": "application/json",
      "paypal-debug-id": randomBytes(7).toString("hex"),
    });
    response.end(JSON.stringify(answer.body));
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
    /** Any event, for types the adapter ignores. */
    event: deliver,

    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((cause) => (cause ? reject(cause) : resolve()));
      }),
  };
}
