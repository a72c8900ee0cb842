import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import Stripe from "stripe";
import { freePort } from "./ports";

/**
 * A local stand-in for api.stripe.com, for the few endpoints the Stripe provider calls: Checkout
 * Sessions (create in payment or setup mode, retrieve with `expand[]=setup_intent.payment_method`),
 * customers (create), PaymentIntents charged off-session (create, retrieve) and refunds (create), and
 * for payouts Connect accounts, account links and transfers (create). It takes the SDK's form-encoded
 * bodies, answers JSON shaped like Stripe's objects and errors (a declined card is a 402 `card_error`
 * carrying the PaymentIntent), replays the first answer for a repeated `Idempotency-Key`, and refuses
 * any other API key. Tests drive what a buyer would do on Stripe's page (pay, save a test card, let the
 * session expire) and sign webhook events with the SDK's own test signer. No network.
 */

type Json = Record<string, unknown>;

/**
 * A Checkout Session as Stripe answers it: the fields the provider and its tests read. A setup session
 * has no amount (`no_payment_required`) and its SetupIntent from the start; a payment session neither.
 */
export type StandInSession = {
  id: string;
  object: "checkout.session";
  mode: "payment" | "setup";
  status: "open" | "complete" | "expired";
  payment_status: "unpaid" | "paid" | "no_payment_required";
  amount_subtotal: number | null;
  amount_total: number | null;
  currency: string | null;
  customer: string | null;
  customer_email: string | null;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  payment_intent: string | null;
  setup_intent: string | null;
  success_url: string;
  cancel_url: string | null;
  url: string | null;
  created: number;
  expires_at: number;
  livemode: false;
};

export type StandInCustomer = {
  id: string;
  object: "customer";
  email: string | null;
  metadata: Record<string, string>;
  created: number;
  livemode: false;
};

/** What a card shows of itself; the fingerprint is the card number's, the same for any customer. */
export type StandInCard = {
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  fingerprint: string;
  funding: "credit";
  country: "US";
};

export type StandInPaymentMethod = {
  id: string;
  object: "payment_method";
  type: "card";
  card: StandInCard;
  /** Null once detached: Stripe no longer charges it for anyone. */
  customer: string | null;
  created: number;
  livemode: false;
};

/** An error as Stripe keeps it on a SetupIntent or PaymentIntent after a failed attempt. */
export type StandInCardError = {
  type: "card_error";
  code: string;
  decline_code?: string;
  message: string;
};

export type StandInSetupIntent = {
  id: string;
  object: "setup_intent";
  status: "requires_payment_method" | "succeeded" | "canceled";
  usage: "off_session";
  customer: string | null;
  /** The PaymentMethod id; `expand[]=setup_intent.payment_method` answers the object instead. */
  payment_method: string | null;
  last_setup_error: StandInCardError | null;
  created: number;
  livemode: false;
};

export type StandInPaymentIntent = {
  id: string;
  object: "payment_intent";
  amount: number;
  amount_received: number;
  currency: string;
  customer: string | null;
  payment_method: string | null;
  description: string | null;
  metadata: Record<string, string>;
  status: "succeeded" | "processing" | "requires_action" | "requires_payment_method" | "canceled";
  last_payment_error: StandInCardError | null;
  latest_charge: string | null;
  created: number;
  livemode: false;
};

/**
 * How a card refuses, as Stripe's 402 `card_error` says it: `decline_code` is the issuer's reason,
 * `code` Stripe's own (`card_declined`, or `authentication_required` for a charge the issuer wants the
 * buyer present for).
 */
type Decline = { code: string; decline_code: string; message: string };

type TestCard = {
  card: Omit<StandInCard, "funding" | "country">;
  /** What a charge of the card does: succeed, decline, or ask for the buyer (`authentication`). */
  charge: "succeeds" | "authentication" | Decline;
  /** A card that declines everything refuses to be saved too; the others save and decline later. */
  declinesSetup?: boolean;
};

const EXPIRY = { exp_month: 12, exp_year: 2034 };
const DECLINED = "Your card was declined.";

/**
 * Stripe's test PaymentMethods by id (docs.stripe.com/testing#declined-payments): usable directly as a
 * `payment_method`, or entered on a setup session's page, where they save as a PaymentMethod of the
 * session's customer with the same card details (and fingerprint, whoever saves them).
 */
export const STAND_IN_TEST_CARDS = {
  pm_card_visa: {
    card: { brand: "visa", last4: "4242", fingerprint: "fp_visa4242", ...EXPIRY },
    charge: "succeeds",
  },
  pm_card_mastercard: {
    card: { brand: "mastercard", last4: "4444", fingerprint: "fp_mastercard4444", ...EXPIRY },
    charge: "succeeds",
  },
  pm_card_chargeDeclinedInsufficientFunds: {
    card: { brand: "visa", last4: "9995", fingerprint: "fp_visa9995", ...EXPIRY },
    charge: {
      code: "card_declined",
      decline_code: "insufficient_funds",
      message: "Your card has insufficient funds.",
    },
  },
  pm_card_chargeDeclinedStolenCard: {
    card: { brand: "visa", last4: "9979", fingerprint: "fp_visa9979", ...EXPIRY },
    charge: { code: "card_declined", decline_code: "stolen_card", message: DECLINED },
  },
  pm_card_authenticationRequired: {
    card: { brand: "visa", last4: "3184", fingerprint: "fp_visa3184", ...EXPIRY },
    charge: "authentication",
  },
  pm_card_visa_chargeDeclined: {
    card: { brand: "visa", last4: "0002", fingerprint: "fp_visa0002", ...EXPIRY },
    charge: { code: "card_declined", decline_code: "generic_decline", message: DECLINED },
    declinesSetup: true,
  },
} satisfies Record<string, TestCard>;

export type StandInTestCard = keyof typeof STAND_IN_TEST_CARDS;

const AUTHENTICATION_REQUIRED: Decline = {
  code: "authentication_required",
  decline_code: "authentication_required",
  message: "Your card was declined. This transaction requires authentication.",
};

function isTestCard(id: string): id is StandInTestCard {
  return Object.hasOwn(STAND_IN_TEST_CARDS, id);
}

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
  /**
   * The buyer entered this test card on a setup session's page: it is saved as a new PaymentMethod of
   * the session's customer, the SetupIntent succeeds and the session completes. A card that declines
   * everything (`pm_card_visa_chargeDeclined`) is refused instead: the SetupIntent keeps the error and
   * the session stays open, as Stripe's page does. Answers the session as a webhook event carries it.
   */
  markSaved(sessionId: string, card?: StandInTestCard): StandInSession;
  customer(id: string): StandInCustomer;
  customers(): StandInCustomer[];
  setupIntent(id: string): StandInSetupIntent;
  paymentMethod(id: string): StandInPaymentMethod;
  /** The buyer (or Stripe) removed a saved method from its customer: it can no longer be charged. */
  detachPaymentMethod(id: string): StandInPaymentMethod;
  paymentIntent(id: string): StandInPaymentIntent;
  /** The PaymentIntent's create parameters as the SDK sent them (`off_session`, `confirm`…). */
  paymentIntentParams(id: string): Json;
  paymentIntents(): StandInPaymentIntent[];
  /** The next charge that would succeed is answered `processing` instead, until settled. */
  holdNextCharge(): void;
  /** A processing charge settles: succeeded, or failed with the issuer's generic decline. */
  settleCharge(id: string, status: "succeeded" | "failed"): StandInPaymentIntent;
  cancelPaymentIntent(id: string): StandInPaymentIntent;
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
    readonly body: {
      type: string;
      message: string;
      code?: string;
      param?: string;
      decline_code?: string;
      charge?: string;
      payment_intent?: StandInPaymentIntent;
      payment_method?: StandInPaymentMethod | { id: string; object: "payment_method" };
    },
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

/** `expand[0]=a.b` (the SDK's form), `expand[]=a.b` (curl's) or `expand=a.b`: the paths asked for. */
function expansionsOf(query: URLSearchParams): string[] {
  return [...query].filter(([key]) => /^expand(\[\d*\])?$/.test(key)).map(([, value]) => value);
}

/** Stripe answers 404 for an unknown object in the URL, 400 for one named in a parameter. */
const missing = (object: string, id: string, param: string, status: 400 | 404 = 404) =>
  new StripeApiError(status, {
    type: "invalid_request_error",
    message: `No such ${object}: '${id}'`,
    code: "resource_missing",
    param,
  });

const dollars = (cents: number) => `$${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;

export async function startStripeStandIn(keys: {
  secretKey: string;
  webhookSecret: string;
}): Promise<StripeStandIn> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const sessions = new Map<string, { session: StandInSession; params: Json }>();
  const customers = new Map<string, StandInCustomer>();
  const setupIntents = new Map<string, StandInSetupIntent>();
  /** Saved methods, each with the test card it was made from (which decides how its charges go). */
  const paymentMethods = new Map<string, { method: StandInPaymentMethod; testCard: StandInTestCard }>();
  const paymentIntents = new Map<string, { intent: StandInPaymentIntent; params: Json }>();
  const refunds = new Map<string, StandInRefund>();
  const answered = new Map<string, { status: number; body: unknown }>();
  const requests: StripeStandIn["requests"] = [];
  const accounts = new Map<string, { account: StandInAccount; params: Json }>();
  const accountLinks: Json[] = [];
  const transfers = new Map<string, StandInTransfer>();
  let nextRefundFailure: string | null = null;
  let holdNext = false;
  let holdNextPayment = false;

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

  function findCustomer(id: string): StandInCustomer {
    const found = customers.get(id);
    if (!found) throw missing("customer", id, "customer", 400);
    return found;
  }

  function createCustomer(params: Json): StandInCustomer {
    const customer: StandInCustomer = {
      id: newId("cus"),
      object: "customer",
      email: (params.email as string | undefined) ?? null,
      metadata: (params.metadata ?? {}) as Record<string, string>,
      created: now(),
      livemode: false,
    };
    customers.set(customer.id, customer);
    return customer;
  }

  function customerParam(params: Json): string | null {
    return params.customer === undefined ? null : findCustomer(required(params.customer, "customer")).id;
  }

  function createSetupSession(params: Json): StandInSession {
    if (params.line_items !== undefined)
      throw new StripeApiError(400, {
        type: "invalid_request_error",
        message: "You cannot pass `line_items` in `setup` mode.",
        param: "line_items",
      });
    const allowed = Object.values((params.allowed_payment_method_types ?? {}) as Record<string, string>);
    const currency = (params.currency as string | undefined) ?? null;
    if (currency === null && allowed.length === 0)
      throw new StripeApiError(400, {
        type: "invalid_request_error",
        message: "Missing required param: currency.",
        code: "parameter_missing",
        param: "currency",
      });
    const customer = customerParam(params);
    const intent: StandInSetupIntent = {
      id: newId("seti"),
      object: "setup_intent",
      status: "requires_payment_method",
      usage: "off_session",
      customer,
      payment_method: null,
      last_setup_error: null,
      created: now(),
      livemode: false,
    };
    setupIntents.set(intent.id, intent);
    const id = newId("cs_test");
    const session: StandInSession = {
      id,
      object: "checkout.session",
      mode: "setup",
      status: "open",
      payment_status: "no_payment_required",
      amount_subtotal: null,
      amount_total: null,
      currency,
      customer,
      customer_email: (params.customer_email as string | undefined) ?? null,
      client_reference_id: (params.client_reference_id as string | undefined) ?? null,
      metadata: (params.metadata ?? {}) as Record<string, string>,
      payment_intent: null,
      setup_intent: intent.id,
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

  function findSetupIntent(id: string): StandInSetupIntent {
    const found = setupIntents.get(id);
    if (!found) throw missing("setup_intent", id, "intent");
    return found;
  }

  /** The session as GET answers it: the SetupIntent (and its PaymentMethod) as objects when expanded. */
  function retrieveSession(id: string, expand: string[]): unknown {
    const { session } = findSession(id);
    const expandsIntent = expand.some((path) => path === "setup_intent" || path.startsWith("setup_intent."));
    if (!expandsIntent || session.setup_intent === null) return session;
    const intent = findSetupIntent(session.setup_intent);
    const method =
      expand.includes("setup_intent.payment_method") && intent.payment_method !== null
        ? findPaymentMethod(intent.payment_method).method
        : intent.payment_method;
    return { ...session, setup_intent: { ...intent, payment_method: method } };
  }

  function findPaymentMethod(id: string) {
    const found = paymentMethods.get(id);
    if (!found) throw missing("PaymentMethod", id, "payment_method");
    return found;
  }

  function savePaymentMethod(testCard: StandInTestCard, customer: string | null): StandInPaymentMethod {
    const method: StandInPaymentMethod = {
      id: newId("pm"),
      object: "payment_method",
      type: "card",
      card: { ...STAND_IN_TEST_CARDS[testCard].card, funding: "credit", country: "US" },
      customer,
      created: now(),
      livemode: false,
    };
    paymentMethods.set(method.id, { method, testCard });
    return method;
  }

  /**
   * The test card behind a charge's `payment_method`: a saved one must still belong to the customer
   * charged (a detached one is gone, as Stripe answers it); a test id (`pm_card_visa`) charges as is.
   */
  function testCardOf(methodId: string, customer: string | null): StandInTestCard {
    const saved = paymentMethods.get(methodId);
    if (saved) {
      if (saved.method.customer === null) throw missing("PaymentMethod", methodId, "payment_method", 400);
      if (saved.method.customer !== customer)
        throw new StripeApiError(400, {
          type: "invalid_request_error",
          message: "The provided PaymentMethod does not belong to the Customer.",
          param: "payment_method",
        });
      return saved.testCard;
    }
    if (isTestCard(methodId)) return methodId;
    throw missing("PaymentMethod", methodId, "payment_method", 400);
  }

  function findPaymentIntent(id: string) {
    const found = paymentIntents.get(id);
    if (!found) throw missing("payment_intent", id, "intent");
    return found;
  }

  function createPaymentIntent(params: Json): StandInPaymentIntent {
    const amount = integer(params.amount, "amount");
    const currency = required(params.currency, "currency");
    if (params.confirm !== "true")
      throw new StripeApiError(400, {
        type: "invalid_request_error",
        message: "The stand-in only creates PaymentIntents confirmed at once (confirm=true).",
        param: "confirm",
      });
    const customer = customerParam(params);
    const methodId = required(params.payment_method, "payment_method");
    const testCard = testCardOf(methodId, customer);
    const intent: StandInPaymentIntent = {
      id: newId("pi"),
      object: "payment_intent",
      amount,
      amount_received: 0,
      currency,
      customer,
      payment_method: methodId,
      description: (params.description as string | undefined) ?? null,
      metadata: (params.metadata ?? {}) as Record<string, string>,
      status: "requires_payment_method",
      last_payment_error: null,
      latest_charge: null,
      created: now(),
      livemode: false,
    };
    paymentIntents.set(intent.id, { intent, params });
    const outcome = STAND_IN_TEST_CARDS[testCard].charge;
    // On session the buyer is there to authenticate (requires_action); off session Stripe refuses.
    if (outcome === "authentication" && params.off_session !== "true") {
      intent.status = "requires_action";
      return intent;
    }
    const decline = outcome === "authentication" ? AUTHENTICATION_REQUIRED : outcome;
    if (decline !== "succeeds") {
      const charge = newId("ch");
      intent.latest_charge = charge;
      intent.last_payment_error = { type: "card_error", ...decline };
      throw new StripeApiError(402, {
        type: "card_error",
        ...decline,
        charge,
        payment_intent: structuredClone(intent),
        payment_method: paymentMethods.get(methodId)?.method ?? { id: methodId, object: "payment_method" },
      });
    }
    intent.latest_charge = newId("ch");
    if (holdNextPayment) {
      holdNextPayment = false;
      intent.status = "processing";
      return intent;
    }
    intent.status = "succeeded";
    intent.amount_received = amount;
    return intent;
  }

  function createSession(params: Json): StandInSession {
    if (params.mode === "setup") return createSetupSession(params);
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
      customer: customerParam(params),
      customer_email: (params.customer_email as string | undefined) ?? null,
      client_reference_id: (params.client_reference_id as string | undefined) ?? null,
      metadata: (params.metadata ?? {}) as Record<string, string>,
      payment_intent: null,
      setup_intent: null,
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

  /** What a PaymentIntent took: a paid session's, or an off-session charge's once it succeeded. */
  function paymentOf(paymentIntent: string): { amount: number; currency: string } {
    const session = [...sessions.values()].find(
      ({ session }) => session.payment_intent === paymentIntent,
    )?.session;
    if (session) return { amount: session.amount_total ?? 0, currency: session.currency ?? "" };
    const intent = paymentIntents.get(paymentIntent)?.intent;
    if (!intent) throw missing("payment_intent", paymentIntent, "payment_intent");
    if (intent.status !== "succeeded")
      throw new StripeApiError(400, {
        type: "invalid_request_error",
        message: `This PaymentIntent (${intent.id}) does not have a successful charge to refund.`,
        param: "payment_intent",
      });
    return { amount: intent.amount_received, currency: intent.currency };
  }

  function createRefund(params: Json): StandInRefund {
    if (nextRefundFailure !== null) {
      const message = nextRefundFailure;
      nextRefundFailure = null;
      throw new StripeApiError(400, { type: "invalid_request_error", message });
    }
    const paymentIntent = required(params.payment_intent, "payment_intent");
    const paid = paymentOf(paymentIntent);
    const charge = `ch_${paymentIntent.slice("pi_".length)}`;
    const refunded = [...refunds.values()]
      .filter((r) => r.payment_intent === paymentIntent && r.status !== "failed" && r.status !== "canceled")
      .reduce((sum, r) => sum + r.amount, 0);
    const left = paid.amount - refunded;
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
      currency: paid.currency,
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

  function route(method: string, path: string, body: string, query: URLSearchParams): unknown {
    if (method === "POST" && path === "/v1/accounts") return createAccount(parseForm(body));
    const account = /^\/v1\/accounts\/([^/]+)$/.exec(path);
    if (method === "GET" && account?.[1]) return findAccount(decodeURIComponent(account[1])).account;
    if (method === "POST" && path === "/v1/account_links") return createAccountLink(parseForm(body));
    if (method === "POST" && path === "/v1/transfers") return createTransfer(parseForm(body));
    if (method === "POST" && path === "/v1/customers") return createCustomer(parseForm(body));
    if (method === "POST" && path === "/v1/checkout/sessions") return createSession(parseForm(body));
    const retrieve = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
    if (method === "GET" && retrieve?.[1])
      return retrieveSession(decodeURIComponent(retrieve[1]), expansionsOf(query));
    if (method === "POST" && path === "/v1/payment_intents") return createPaymentIntent(parseForm(body));
    const intent = /^\/v1\/payment_intents\/([^/]+)$/.exec(path);
    if (method === "GET" && intent?.[1]) return findPaymentIntent(decodeURIComponent(intent[1])).intent;
    if (method === "POST" && path === "/v1/refunds") return createRefund(parseForm(body));
    const paymentMethod = /^\/v1\/payment_methods\/([^/]+)$/.exec(path);
    if (method === "GET" && paymentMethod?.[1])
      return findPaymentMethod(decodeURIComponent(paymentMethod[1])).method;
    const detach = /^\/v1\/payment_methods\/([^/]+)\/detach$/.exec(path);
    if (method === "POST" && detach?.[1]) {
      const saved = findPaymentMethod(decodeURIComponent(detach[1])).method;
      if (!saved.customer)
        throw new StripeApiError(400, {
          type: "invalid_request_error",
          message:
            "The payment method you provided is not attached to a customer so detachment is impossible.",
        });
      saved.customer = null;
      return saved;
    }
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
    const { pathname: path, searchParams: query } = new URL(req.url ?? "/", url);
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
      answer = route(method, path, body, query);
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
    markSaved(sessionId, card = "pm_card_visa") {
      const { session } = findSession(sessionId);
      if (session.mode !== "setup" || session.setup_intent === null)
        throw new Error(`stand-in session ${sessionId} is not a setup session`);
      if (session.status !== "open") throw new Error(`stand-in session ${sessionId} is ${session.status}`);
      const intent = findSetupIntent(session.setup_intent);
      const testCard: TestCard = STAND_IN_TEST_CARDS[card];
      if (testCard.declinesSetup && typeof testCard.charge === "object") {
        intent.last_setup_error = { type: "card_error", ...testCard.charge };
        return session;
      }
      intent.payment_method = savePaymentMethod(card, session.customer).id;
      intent.status = "succeeded";
      intent.last_setup_error = null;
      session.status = "complete";
      return session;
    },
    customer: findCustomer,
    customers: () => [...customers.values()],
    setupIntent: findSetupIntent,
    paymentMethod: (id) => findPaymentMethod(id).method,
    detachPaymentMethod(id) {
      const { method } = findPaymentMethod(id);
      method.customer = null;
      return method;
    },
    paymentIntent: (id) => findPaymentIntent(id).intent,
    paymentIntentParams: (id) => findPaymentIntent(id).params,
    paymentIntents: () => [...paymentIntents.values()].map(({ intent }) => intent),
    holdNextCharge() {
      holdNextPayment = true;
    },
    settleCharge(id, status) {
      const { intent } = findPaymentIntent(id);
      if (intent.status !== "processing") throw new Error(`stand-in PaymentIntent ${id} is ${intent.status}`);
      if (status === "succeeded") {
        intent.status = "succeeded";
        intent.amount_received = intent.amount;
      } else {
        intent.status = "requires_payment_method";
        intent.last_payment_error = {
          type: "card_error",
          code: "card_declined",
          decline_code: "generic_decline",
          message: DECLINED,
        };
      }
      return intent;
    },
    cancelPaymentIntent(id) {
      const { intent } = findPaymentIntent(id);
      if (intent.status === "succeeded" || intent.status === "processing")
        throw new Error(`stand-in PaymentIntent ${id} is ${intent.status} and cannot be canceled`);
      intent.status = "canceled";
      return intent;
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
