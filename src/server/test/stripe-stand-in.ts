import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import Stripe from "stripe";
import { freePort } from "./ports";

/**
 * A local stand-in for api.stripe.com, for the few endpoints the Stripe provider calls: Checkout
 * Sessions (create, retrieve) and refunds (create), and for payouts Connect accounts, account links
 * and transfers (create). It takes the SDK's form-encoded bodies, answers
 * JSON shaped like Stripe's objects and errors, replays the first answer for a repeated
 * `Idempotency-Key`, and refuses any other API key. Tests drive what a buyer would do on Stripe's page
 * (pay, let the session expire) and sign webhook events with the SDK's own test signer. No network.
 */

type Json = Record<string, unknown>;

/** A Checkout Session as Stripe answers it: the fields the provider and its tests read. */
export type StandInSession = {
  id: string;
  object: "checkout.session";
  mode: string;
  status: "open" | "complete" | "expired";
  payment_status: "unpaid" | "paid";
  amount_subtotal: number;
  amount_total: number;
  currency: string;
  customer_email: string | null;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  payment_intent: string | null;
  success_url: string;
  cancel_url: string | null;
  url: string | null;
  created: number;
  expires_at: number;
  livemode: false;
};

export type StandInRefund = {
  id: string;
  object: "refund";
  amount: number;
  currency: string;
  charge: string;
  payment_intent: string;
  metadata: Record<string, string>;
  status: "succeeded" | "pending" | "requires_action" | "failed" | "canceled";
  failure_reason?: string;
  created: number;
};

/** A Connect account as Stripe answers it: the fields the payout rails and their tests read. */
export type StandInAccount = {
  id: string;
  object: "account";
  type: string;
  country: string;
  email: string | null;
  metadata: Record<string, string>;
  capabilities: { transfers?: "active" | "inactive" | "pending" };
  charges_enabled: boolean;
  payouts_enabled: boolean;
  details_submitted: boolean;
  requirements: { currently_due: string[]; past_due: string[]; disabled_reason: string | null };
  created: number;
};

export type StandInTransfer = {
  id: string;
  object: "transfer";
  amount: number;
  currency: string;
  destination: string;
  metadata: Record<string, string>;
  created: number;
};

export type SignedWebhook = { rawBody: Buffer; headers: Record<string, string> };

export type StripeStandIn = {
  /** The API base to give the provider (`apiBase`). */
  url: string;
  /** Every API request received, in order; `replayed` when answered from an idempotency key. */
  requests: { method: string; path: string; idempotencyKey: string | null; replayed: boolean }[];
  session(id: string): StandInSession;
  /** The session's create parameters as the SDK sent them (line items are not on the session). */
  sessionParams(id: string): Json;
  sessions(): StandInSession[];
  refunds(): StandInRefund[];
  /** The buyer paid on Stripe's page: the session completes with a PaymentIntent. */
  markPaid(sessionId: string): StandInSession;
  markExpired(sessionId: string): StandInSession;
  /** The next refund request is refused by "Stripe" with this message (an `invalid_request_error`). */
  failNextRefund(message: string): void;
  /** The next refund is answered `pending`, as Stripe does for some payment methods, until settled. */
  holdNextRefund(): void;
  /** A held refund settles (or fails): answers the refund as a `refund.updated` event carries it. */
  settleRefund(id: string, status: "succeeded" | "failed", failureReason?: string): StandInRefund;
  account(id: string): StandInAccount;
  /** Each account's create parameters as the SDK sent them. */
  accountParams(id: string): Json;
  accounts(): StandInAccount[];
  /** The account holder finished (or left unfinished) onboarding on Stripe's page. */
  setOnboarding(accountId: string, state: "complete" | "incomplete"): StandInAccount;
  /** Each account link's create parameters, in order. */
  accountLinks: Json[];
  transfers(): StandInTransfer[];
  /** A webhook delivery of `type` about `object`, signed like Stripe does (or with another secret/time). */
  signedEvent(type: string, object: object, options?: { secret?: string; timestamp?: number }): SignedWebhook;
  close(): Promise<void>;
};

const now = () => Math.floor(Date.now() / 1000);
const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString("hex")}`;

/** `line_items[0][price_data][currency]=usd` → `{ line_items: { "0": { price_data: { currency } } } }`. */
function parseForm(body: string): Json {
  const root: Json = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.match(/[^[\]]+/g) ?? [key];
    const last = path.pop() ?? key;
    let node = root;
    for (const segment of path) {
      node[segment] ??= {};
      node = node[segment] as Json;
    }
    node[last] = value;
  }
  return root;
}

class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: { type: string; message: string; code?: string; param?: string },
  ) {
    super(body.message);
  }
}

function integer(value: unknown, param: string): number {
  const number = Number(value);
  if (typeof value !== "string" || !Number.isSafeInteger(number))
    throw new StripeApiError(400, {
      type: "invalid_request_error",
      message: `Invalid integer: ${String(value)}`,
      param,
    });
  return number;
}

function required(value: unknown, param: string): string {
  if (typeof value !== "string" || value === "")
    throw new StripeApiError(400, {
      type: "invalid_request_error",
      message: `Missing required param: ${param}.`,
      code: "parameter_missing",
      param,
    });
  return value;
}

const dollars = (cents: number) => `$${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;

export async function startStripeStandIn(keys: {
  secretKey: string;
  webhookSecret: string;
}): Promise<StripeStandIn> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const sessions = new Map<string, { session: StandInSession; params: Json }>();
  const refunds = new Map<string, StandInRefund>();
  const answered = new Map<string, { status: number; body: unknown }>();
  const requests: StripeStandIn["requests"] = [];
  const accounts = new Map<string, { account: StandInAccount; params: Json }>();
  const accountLinks: Json[] = [];
  const transfers = new Map<string, StandInTransfer>();
  let nextRefundFailure: string | null = null;
  let holdNext = false;

  function findSession(id: string) {
    const found = sessions.get(id);
    if (!found)
      throw new StripeApiError(404, {
        type: "invalid_request_error",
        message: `No such checkout.session: '${id}'`,
        code: "resource_missing",
        param: "session",
      });
    return found;
  }

  function createSession(params: Json): StandInSession {
    const lineItems = Object.values((params.line_items ?? {}) as Record<string, Json>);
    if (params.mode !== "payment" || lineItems.length === 0)
      throw new StripeApiError(400, {
        type: "invalid_request_error",
        message: "The stand-in only opens payment sessions with line items.",
      });
    let total = 0;
    let currency = "";
    lineItems.forEach((item, index) => {
      const price = (item.price_data ?? {}) as Json;
      currency = required(price.currency, `line_items[${index}][price_data][currency]`);
      required(
        ((price.product_data ?? {}) as Json).name,
        `line_items[${index}][price_data][product_data][name]`,
      );
      total +=
        integer(price.unit_amount, `line_items[${index}][price_data][unit_amount]`) *
        integer(item.quantity, `line_items[${index}][quantity]`);
    });
    const id = newId("cs_test");
    const session: StandInSession = {
      id,
      object: "checkout.session",
      mode: "payment",
      status: "open",
      payment_status: "unpaid",
      amount_subtotal: total,
      amount_total: total,
      currency,
      customer_email: (params.customer_email as string | undefined) ?? null,
      client_reference_id: (params.client_reference_id as string | undefined) ?? null,
      metadata: (params.metadata ?? {}) as Record<string, string>,
      payment_intent: null,
      success_url: required(params.success_url, "success_url"),
      cancel_url: (params.cancel_url as string | undefined) ?? null,
      url: `${url}/c/pay/${id}`,
      created: now(),
      expires_at: now() + 24 * 60 * 60,
      livemode: false,
    };
    sessions.set(id, { session, params });
    return session;
  }

  function createRefund(params: Json): StandInRefund {
    if (nextRefundFailure !== null) {
      const message = nextRefundFailure;
      nextRefundFailure = null;
      throw new StripeApiError(400, { type: "invalid_request_error", message });
    }
    const paymentIntent = required(params.payment_intent, "payment_intent");
    const paid = [...sessions.values()].find(({ session }) => session.payment_intent === paymentIntent);
    if (!paid)
      throw new StripeApiError(404, {
        type: "invalid_request_error",
        message: `No such payment_intent: '${paymentIntent}'`,
        code: "resource_missing",
        param: "payment_intent",
      });
    const charge = `ch_${paymentIntent.slice("pi_".length)}`;
    const refunded = [...refunds.values()]
      .filter((r) => r.payment_intent === paymentIntent && r.status !== "failed" && r.status !== "canceled")
      .reduce((sum, r) => sum + r.amount, 0);
    const left = paid.session.amount_total - refunded;
    if (left === 0)
      throw new StripeApiError(400, {
        type: "invalid_request_error",
        message: `Charge ${charge} has already been refunded.`,
        code: "charge_already_refunded",
      });
    const amount = params.amount === undefined ? left : integer(params.amount, "amount");
    if (amount > left)
      throw new StripeApiError(400, {
        type: "invalid_request_error",
        message: `Refund amount (${dollars(amount)}) is greater than unrefunded amount on charge (${dollars(left)})`,
        code: "amount_too_large",
        param: "amount",
      });
    const refund: StandInRefund = {
      id: newId("re"),
      object: "refund",
      amount,
      currency: paid.session.currency,
      charge,
      payment_intent: paymentIntent,
      metadata: (params.metadata ?? {}) as Record<string, string>,
      status: holdNext ? "pending" : "succeeded",
      created: now(),
    };
    holdNext = false;
    refunds.set(refund.id, refund);
    return refund;
  }

  function findAccount(id: string) {
    const found = accounts.get(id);
    if (!found)
      throw new StripeApiError(404, {
        type: "invalid_request_error",
        message: `No such account: '${id}'`,
        code: "resource_missing",
        param: "account",
      });
    return found;
  }

  const onboardingDue = ["business_type", "external_account", "tos_acceptance.date", "tos_acceptance.ip"];

  function createAccount(params: Json): StandInAccount {
    if (params.type !== "express")
      throw new StripeApiError(400, {
        type: "invalid_request_error",
        message: "The stand-in only opens Express accounts.",
        param: "type",
      });
    const country = required(params.country, "country");
    if (!/^[A-Z]{2}$/.test(country))
      throw new StripeApiError(400, {
        type: "invalid_request_error",
        message: `Country '${country}' is unknown. Try using a 2-character alphanumeric country code instead, such as 'US', 'EG', or 'GB'.`,
        param: "country",
      });
    const account: StandInAccount = {
      id: newId("acct"),
      object: "account",
      type: "express",
      country,
      email: (params.email as string | undefined) ?? null,
      metadata: (params.metadata ?? {}) as Record<string, string>,
      capabilities:
        ((params.capabilities as Json | undefined)?.transfers as Json | undefined)?.requested === "true"
          ? { transfers: "inactive" }
          : {},
      charges_enabled: false,
      payouts_enabled: false,
      details_submitted: false,
      requirements: {
        currently_due: [...onboardingDue],
        past_due: [],
        disabled_reason: "requirements.past_due",
      },
      created: now(),
    };
    accounts.set(account.id, { account, params });
    return account;
  }

  function createAccountLink(params: Json) {
    const account = findAccount(required(params.account, "account")).account;
    if (params.type !== "account_onboarding" && params.type !== "account_update")
      throw new StripeApiError(400, {
        type: "invalid_request_error",
        message: "Invalid type: must be one of account_onboarding or account_update",
        param: "type",
      });
    required(params.return_url, "return_url");
    required(params.refresh_url, "refresh_url");
    accountLinks.push(params);
    return {
      object: "account_link",
      created: now(),
      expires_at: now() + 300,
      url: `${url}/setup/e/${account.id}/${randomBytes(8).toString("hex")}`,
    };
  }

  function createTransfer(params: Json): StandInTransfer {
    const amount = integer(params.amount, "amount");
    const destination = required(params.destination, "destination");
    const account = findAccount(destination).account;
    if (account.capabilities.transfers !== "active")
      throw new StripeApiError(400, {
        type: "invalid_request_error",
        message:
          "Your destination account needs to have at least one of the following capabilities enabled: transfers, crypto_transfers, legacy_payments",
        code: "insufficient_capabilities_for_transfer",
        param: "destination",
      });
    const transfer: StandInTransfer = {
      id: newId("tr"),
      object: "transfer",
      amount,
      currency: required(params.currency, "currency"),
      destination,
      metadata: (params.metadata ?? {}) as Record<string, string>,
      created: now(),
    };
    transfers.set(transfer.id, transfer);
    return transfer;
  }

  function route(method: string, path: string, body: string): unknown {
    if (method === "POST" && path === "/v1/accounts") return createAccount(parseForm(body));
    const account = /^\/v1\/accounts\/([^/]+)$/.exec(path);
    if (method === "GET" && account?.[1]) return findAccount(decodeURIComponent(account[1])).account;
    if (method === "POST" && path === "/v1/account_links") return createAccountLink(parseForm(body));
    if (method === "POST" && path === "/v1/transfers") return createTransfer(parseForm(body));
    if (method === "POST" && path === "/v1/checkout/sessions") return createSession(parseForm(body));
    const retrieve = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
    if (method === "GET" && retrieve?.[1]) return findSession(decodeURIComponent(retrieve[1])).session;
    if (method === "POST" && path === "/v1/refunds") return createRefund(parseForm(body));
    throw new StripeApiError(404, {
      type: "invalid_request_error",
      message: `Unrecognized request URL (${method}: ${path}).`,
    });
  }

  function send(res: ServerResponse, status: number, body: unknown, replayed = false) {
    res.writeHead(status, {
      "content-type": "application/json",
      "request-id": newId("req"),
      ...(replayed ? { "idempotent-replayed": "true" } : {}),
    });
    res.end(JSON.stringify(body));
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const method = req.method ?? "GET";
    const path = new URL(req.url ?? "/", url).pathname;
    const header = req.headers["idempotency-key"];
    const idempotencyKey = typeof header === "string" ? header : null;

    if (req.headers.authorization !== `Bearer ${keys.secretKey}`) {
      requests.push({ method, path, idempotencyKey, replayed: false });
      send(res, 401, {
        error: { type: "invalid_request_error", message: "Invalid API Key provided." },
      });
      return;
    }
    const first = idempotencyKey && method === "POST" ? answered.get(idempotencyKey) : undefined;
    requests.push({ method, path, idempotencyKey, replayed: first !== undefined });
    if (first) {
      send(res, first.status, first.body, true);
      return;
    }
    let status = 200;
    let answer: unknown;
    try {
      answer = route(method, path, body);
    } catch (error) {
      if (!(error instanceof StripeApiError)) throw error;
      status = error.status;
      answer = { error: error.body };
    }
    if (idempotencyKey && method === "POST") answered.set(idempotencyKey, { status, body: answer });
    send(res, status, answer);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      send(res, 500, {
        error: { type: "api_error", message: error instanceof Error ? error.message : String(error) },
      });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });

  return {
    url,
    requests,
    session: (id) => findSession(id).session,
    sessionParams: (id) => findSession(id).params,
    sessions: () => [...sessions.values()].map(({ session }) => session),
    refunds: () => [...refunds.values()],
    markPaid(sessionId) {
      const { session } = findSession(sessionId);
      session.status = "complete";
      session.payment_status = "paid";
      session.payment_intent = newId("pi");
      return session;
    },
    markExpired(sessionId) {
      const { session } = findSession(sessionId);
      session.status = "expired";
      session.url = null;
      return session;
    },
    failNextRefund(message) {
      nextRefundFailure = message;
    },
    account: (id) => findAccount(id).account,
    accountParams: (id) => findAccount(id).params,
    accounts: () => [...accounts.values()].map(({ account }) => account),
    setOnboarding(accountId, state) {
      const { account } = findAccount(accountId);
      const complete = state === "complete";
      account.details_submitted = complete;
      account.payouts_enabled = complete;
      account.charges_enabled = complete;
      if (account.capabilities.transfers) account.capabilities.transfers = complete ? "active" : "inactive";
      account.requirements = complete
        ? { currently_due: [], past_due: [], disabled_reason: null }
        : {
            currently_due: ["external_account"],
            past_due: ["external_account"],
            disabled_reason: "requirements.past_due",
          };
      return account;
    },
    accountLinks,
    transfers: () => [...transfers.values()],
    holdNextRefund() {
      holdNext = true;
    },
    settleRefund(id, status, failureReason) {
      const refund = refunds.get(id);
      if (!refund) throw new Error(`no stand-in refund ${id}`);
      refund.status = status;
      if (failureReason) refund.failure_reason = failureReason;
      return refund;
    },
    signedEvent(type, object, options = {}) {
      const payload = JSON.stringify(
        {
          id: newId("evt"),
          object: "event",
          api_version: Stripe.API_VERSION,
          created: now(),
          data: { object },
          livemode: false,
          pending_webhooks: 1,
          request: { id: null, idempotency_key: null },
          type,
        },
        null,
        2,
      );
      const signature = Stripe.webhooks.generateTestHeaderString({
        payload,
        secret: options.secret ?? keys.webhookSecret,
        ...(options.timestamp === undefined ? {} : { timestamp: options.timestamp }),
      });
      return { rawBody: Buffer.from(payload, "utf8"), headers: { "stripe-signature": signature } };
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
