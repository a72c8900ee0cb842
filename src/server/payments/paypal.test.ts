import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import {
  centsToValue,
  createPayPalProvider,
  PAYPAL_HARD_DECLINES,
  PayPalApiError,
  valueToCents,
} from "#server/payments/paypal";
import {
  InvalidWebhookSignature,
  type OffSessionCharge,
  type PaymentStart,
  type SavedMethodDetails,
  type SetupStart,
} from "#server/payments/provider";
import { type PayPalStandIn, rawMember, startPayPalStandIn } from "#server/test/paypal-stand-in";
import { freePort } from "#server/test/ports";

let paypal: PayPalStandIn;
beforeAll(async () => {
  paypal = await startPayPalStandIn();
});
afterAll(() => paypal.close());
afterEach(() => {
  vi.useRealTimers();
});

const provider = () =>
  createPayPalProvider({
    clientId: paypal.clientId,
    clientSecret: paypal.clientSecret,
    webhookId: paypal.webhookId,
    apiBase: paypal.apiBase,
  });

function payment(overrides: Partial<PaymentStart> = {}): PaymentStart {
  const orderId = randomUUID();
  return {
    orderId,
    idempotencyKey: `${orderId}:1`,
    amountCents: 1234,
    description: `Stackbay order ${orderId.slice(0, 8).toUpperCase()}`,
    email: "buyer@example.com",
    returnUrl: `https://stackbay.test/orders/${orderId}/return`,
    cancelUrl: `https://stackbay.test/orders/${orderId}/cancelled`,
    ...overrides,
  };
}

const callsTo = (path: string) => paypal.calls.filter((c) => c.path === path);
const capturePath = (id: string) => `/v2/checkout/orders/${id}/capture`;

/** A payment the buyer approved and we captured: the state every refund test starts from. */
async function paidOrder(amountCents = 1234) {
  const adapter = provider();
  const start = payment({ amountCents });
  const { providerRef } = await adapter.start(start);
  paypal.approve(providerRef);
  expect(await adapter.complete(providerRef, { token: providerRef })).toEqual({
    state: "paid",
    amountCents,
    currency: "usd",
  });
  return { adapter, start, providerRef };
}

function setup(overrides: Partial<SetupStart> = {}): SetupStart {
  const setupId = randomUUID();
  return {
    setupId,
    kind: "paypal",
    customerRef: null,
    userId: randomUUID(),
    email: "buyer@example.com",
    returnUrl: `https://stackbay.test/account/payment-methods/${setupId}/return`,
    cancelUrl: `https://stackbay.test/account/payment-methods/${setupId}/cancelled`,
    ...overrides,
  };
}

/** A PayPal account the buyer saved: approved at PayPal, exchanged for a payment token. */
async function savedAccount(email = "saver@example.com"): Promise<SavedMethodDetails> {
  const adapter = provider();
  const { providerRef } = await adapter.startSetup(setup());
  paypal.approveSetup(providerRef, { email });
  const state = await adapter.completeSetup(providerRef, {});
  if (state.state !== "saved") throw new Error(`The setup ended ${state.state}`);
  return state.method;
}

function offSession(method: SavedMethodDetails, overrides: Partial<OffSessionCharge> = {}): OffSessionCharge {
  const orderId = randomUUID();
  return {
    orderId,
    idempotencyKey: `${orderId}:1`,
    amountCents: 2599,
    description: `Stackbay renewal ${orderId.slice(0, 8).toUpperCase()}`,
    customerRef: method.customerRef,
    methodRef: method.methodRef,
    ...overrides,
  };
}

describe("amounts", () => {
  test("cents travel as PayPal's decimal strings and back, exactly", () => {
    expect(centsToValue(1234)).toBe("12.34");
    expect(centsToValue(5)).toBe("0.05");
    expect(centsToValue(100)).toBe("1.00");
    expect(centsToValue(519_750_000_000)).toBe("5197500000.00");
    expect(valueToCents("12.34")).toBe(1234);
    expect(valueToCents("12.3")).toBe(1230);
    expect(valueToCents("7")).toBe(700);
    expect(valueToCents("0.29")).toBe(29);
    expect(() => centsToValue(12.5)).toThrow(RangeError);
    expect(() => valueToCents("1.234")).toThrow(RangeError);
  });
});

describe("start", () => {
  test("opens a CAPTURE order for the order's amount and sends the buyer to PayPal's page", async () => {
    const start = payment({ amountCents: 4999 });
    const started = await provider().start(start);
    expect(started.redirectUrl).toBe(`${paypal.apiBase}/checkoutnow?token=${started.providerRef}`);
    const order = paypal.order(started.providerRef);
    expect(order).toMatchObject({
      intent: "CAPTURE",
      status: "PAYER_ACTION_REQUIRED",
      payment_source: { paypal: { email_address: "buyer@example.com" } },
      purchase_units: [
        {
          custom_id: start.orderId,
          invoice_id: start.orderId,
          description: start.description,
          amount: { currency_code: "USD", value: "49.99" },
        },
      ],
    });
    const create = callsTo("/v2/checkout/orders").at(-1);
    expect(create?.requestId).toBe(start.idempotencyKey);
  });

  test("the same idempotency key answers the same order; a new attempt gets a new one", async () => {
    const adapter = provider();
    const start = payment();
    const before = paypal.orderCount();
    const first = await adapter.start(start);
    const again = await adapter.start(start);
    expect(again).toEqual(first);
    expect(paypal.orderCount()).toBe(before + 1);
    const retry = await adapter.start({ ...start, idempotencyKey: `${start.orderId}:2` });
    expect(retry.providerRef).not.toBe(first.providerRef);
    expect(paypal.orderCount()).toBe(before + 2);
  });

  test("a refused order (not a positive amount) is thrown, never turned into a page", async () => {
    await expect(provider().start(payment({ amountCents: 0 }))).rejects.toThrow(PayPalApiError);
  });
});

describe("complete", () => {
  test("after approval it captures once; a second return answers paid without capturing again", async () => {
    const adapter = provider();
    const { providerRef } = await adapter.start(payment());
    paypal.approve(providerRef);
    expect(await adapter.complete(providerRef, { token: providerRef, PayerID: "QYR5Z8XDVJNXQ" })).toEqual({
      state: "paid",
      amountCents: 1234,
      currency: "usd",
    });
    expect(await adapter.complete(providerRef, { token: providerRef })).toEqual({
      state: "paid",
      amountCents: 1234,
      currency: "usd",
    });
    expect(paypal.capturesOf(providerRef)).toBe(1);
    expect(callsTo(capturePath(providerRef))).toHaveLength(1);
  });

  test("two returns at once (a double click, the return racing reconciliation) capture once", async () => {
    const adapter = provider();
    const { providerRef } = await adapter.start(payment());
    paypal.approve(providerRef);
    const answers = await Promise.all([
      adapter.complete(providerRef, { token: providerRef }),
      adapter.lookup(providerRef),
    ]);
    expect(answers).toEqual([
      { state: "paid", amountCents: 1234, currency: "usd" },
      { state: "paid", amountCents: 1234, currency: "usd" },
    ]);
    expect(paypal.capturesOf(providerRef)).toBe(1);
    for (const call of callsTo(capturePath(providerRef)))
      expect(call.requestId).toBe(`capture:${providerRef}`);
  });

  test("before the buyer approved, the order is pending and nothing is captured", async () => {
    const adapter = provider();
    const { providerRef } = await adapter.start(payment());
    expect(await adapter.complete(providerRef, { token: providerRef })).toEqual({ state: "pending" });
    expect(callsTo(capturePath(providerRef))).toHaveLength(0);
  });

  test("the capture is captured for the stored order, whatever the return's token says", async () => {
    const adapter = provider();
    const mine = await adapter.start(payment());
    const other = await adapter.start(payment());
    paypal.approve(mine.providerRef);
    paypal.approve(other.providerRef);
    expect(await adapter.complete(mine.providerRef, { token: other.providerRef })).toMatchObject({
      state: "paid",
    });
    expect(paypal.capturesOf(other.providerRef)).toBe(0);
  });

  test("a declined instrument fails the payment with PayPal's reason", async () => {
    const adapter = provider();
    const { providerRef } = await adapter.start(payment());
    paypal.approve(providerRef);
    paypal.decideCapture(providerRef, "instrument-declined");
    const state = await adapter.complete(providerRef, { token: providerRef });
    expect(state).toEqual({
      state: "failed",
      reason:
        "The instrument presented was either declined by the processor or bank, or it can't be used for this payment.",
    });
    expect(paypal.capturesOf(providerRef)).toBe(0);
    // Asked again (the buyer reloads the return page), PayPal gives the same answer to the same request id.
    expect(await adapter.complete(providerRef, { token: providerRef })).toEqual(state);
  });

  test("a capture PayPal records as DECLINED fails the payment", async () => {
    const adapter = provider();
    const { providerRef } = await adapter.start(payment());
    paypal.approve(providerRef);
    paypal.decideCapture(providerRef, "declined");
    expect(await adapter.complete(providerRef, { token: providerRef })).toEqual({
      state: "failed",
      reason: "PayPal declined the capture",
    });
    expect(await adapter.lookup(providerRef)).toMatchObject({ state: "failed" });
  });

  test("a capture held for review is pending, and stays so on lookup", async () => {
    const adapter = provider();
    const { providerRef } = await adapter.start(payment());
    paypal.approve(providerRef);
    paypal.decideCapture(providerRef, "pending");
    expect(await adapter.complete(providerRef, { token: providerRef })).toEqual({ state: "pending" });
    expect(await adapter.lookup(providerRef)).toEqual({ state: "pending" });
    expect(paypal.capturesOf(providerRef)).toBe(1);
  });

  test("a voided order is cancelled; one PayPal has forgotten has expired", async () => {
    const adapter = provider();
    const voided = await adapter.start(payment());
    paypal.void(voided.providerRef);
    expect(await adapter.complete(voided.providerRef, { token: voided.providerRef })).toEqual({
      state: "cancelled",
    });
    const lapsed = await adapter.start(payment());
    paypal.expire(lapsed.providerRef);
    expect(await adapter.lookup(lapsed.providerRef)).toEqual({ state: "expired" });
  });
});

describe("lookup", () => {
  test("reads the order: pending until approved, then captures the approved order once", async () => {
    const adapter = provider();
    const { providerRef } = await adapter.start(payment({ amountCents: 250 }));
    expect(await adapter.lookup(providerRef)).toEqual({ state: "pending" });
    expect(callsTo(capturePath(providerRef))).toHaveLength(0);
    paypal.approve(providerRef);
    expect(await adapter.lookup(providerRef)).toEqual({ state: "paid", amountCents: 250, currency: "usd" });
    expect(await adapter.lookup(providerRef)).toEqual({ state: "paid", amountCents: 250, currency: "usd" });
    expect(callsTo(capturePath(providerRef))).toHaveLength(1);
  });
});

describe("parseWebhook", () => {
  test("a completed capture is the payment of our order, with PayPal's order as the reference", async () => {
    const { adapter, start, providerRef } = await paidOrder(4200);
    const delivery = paypal.captureEvent(providerRef);
    expect(await adapter.parseWebhook(delivery.body, delivery.headers)).toEqual({
      eventId: delivery.eventId,
      kind: "payment",
      providerRef,
      orderId: start.orderId,
      result: { state: "paid", amountCents: 4200, currency: "usd" },
    });
  });

  test("a capture in another currency carries that currency, so the payment can refuse it", async () => {
    const { adapter, start, providerRef } = await paidOrder(4200);
    // The same figure in euros: equal in value, not the dollars the order costs.
    const delivery = paypal.event("PAYMENT.CAPTURE.COMPLETED", "capture", {
      id: "3C679366HH908993F",
      status: "COMPLETED",
      amount: { currency_code: "EUR", value: "42.00" },
      custom_id: start.orderId,
      supplementary_data: { related_ids: { order_id: providerRef } },
    });
    expect(await adapter.parseWebhook(delivery.body, delivery.headers)).toMatchObject({
      kind: "payment",
      providerRef,
      result: { state: "paid", amountCents: 4200, currency: "eur" },
    });
  });

  test("a denied or declined capture fails the payment", async () => {
    const { adapter, start, providerRef } = await paidOrder();
    for (const type of ["PAYMENT.CAPTURE.DENIED", "PAYMENT.CAPTURE.DECLINED"]) {
      const delivery = paypal.captureEvent(providerRef, type);
      expect(await adapter.parseWebhook(delivery.body, delivery.headers)).toEqual({
        eventId: delivery.eventId,
        kind: "payment",
        providerRef,
        orderId: start.orderId,
        result: { state: "failed", reason: "PayPal declined the capture" },
      });
    }
  });

  test("an approved order is pending: approval alone takes no money", async () => {
    const adapter = provider();
    const start = payment();
    const { providerRef } = await adapter.start(start);
    paypal.approve(providerRef);
    const delivery = paypal.orderEvent(providerRef);
    expect(await adapter.parseWebhook(delivery.body, delivery.headers)).toEqual({
      eventId: delivery.eventId,
      kind: "payment",
      providerRef,
      orderId: start.orderId,
      result: { state: "pending" },
    });
  });

  test("a refund comes back with our refund id; a reversal with none", async () => {
    const { adapter, start, providerRef } = await paidOrder();
    const refundId = randomUUID();
    const refund = await adapter.refund({ refundId, orderId: start.orderId, providerRef, amountCents: 234 });
    const refunded = paypal.refundEvent(refund.providerRefundRef);
    expect(await adapter.parseWebhook(refunded.body, refunded.headers)).toEqual({
      eventId: refunded.eventId,
      kind: "refund",
      providerRefundRef: refund.providerRefundRef,
      refundId,
      result: { state: "succeeded" },
    });
    const reversal = paypal.event("PAYMENT.CAPTURE.REVERSED", "refund", {
      id: "1LM91935TG1416225",
      status: "COMPLETED",
      amount: { currency_code: "USD", value: "10.00" },
    });
    expect(await adapter.parseWebhook(reversal.body, reversal.headers)).toEqual({
      eventId: reversal.eventId,
      kind: "refund",
      providerRefundRef: "1LM91935TG1416225",
      refundId: null,
      result: { state: "succeeded" },
    });
  });

  test("events the marketplace does not act on are verified, then ignored", async () => {
    const delivery = paypal.event("CUSTOMER.DISPUTE.CREATED", "dispute", { dispute_id: "PP-D-27803" });
    expect(await provider().parseWebhook(delivery.body, delivery.headers)).toEqual({
      eventId: delivery.eventId,
      kind: "ignored",
      type: "CUSTOMER.DISPUTE.CREATED",
    });
  });

  test("the body is verified exactly as it arrived, however PayPal laid it out", async () => {
    const { adapter, providerRef } = await paidOrder();
    const delivery = paypal.captureEvent(providerRef, "PAYMENT.CAPTURE.COMPLETED", "spaced");
    expect(delivery.body.toString()).toContain('\n  "resource": {');
    expect(await adapter.parseWebhook(delivery.body, delivery.headers)).toMatchObject({ kind: "payment" });
  });

  test("an altered body, a forged transmission or a refused verification is thrown out", async () => {
    const { adapter, providerRef } = await paidOrder(1234);
    const genuine = paypal.captureEvent(providerRef);
    const altered = Buffer.from(genuine.body.toString().replace('"value":"12.34"', '"value":"99.99"'));
    expect(altered.equals(genuine.body)).toBe(false);
    await expect(adapter.parseWebhook(altered, genuine.headers)).rejects.toThrow(InvalidWebhookSignature);

    const forgedHeaders = { ...genuine.headers, "paypal-transmission-id": randomUUID() };
    await expect(adapter.parseWebhook(genuine.body, forgedHeaders)).rejects.toThrow(InvalidWebhookSignature);

    const otherSignature = {
      ...genuine.headers,
      "paypal-transmission-sig": "c2lnbmVkIGJ5IHNvbWVvbmUgZWxzZQ==",
    };
    await expect(adapter.parseWebhook(genuine.body, otherSignature)).rejects.toThrow(InvalidWebhookSignature);

    // Another delivery's genuine headers do not vouch for this body.
    const other = paypal.captureEvent(providerRef);
    await expect(adapter.parseWebhook(genuine.body, other.headers)).rejects.toThrow(InvalidWebhookSignature);

    const refused = paypal.captureEvent(providerRef);
    paypal.refuseVerification(refused.headers["paypal-transmission-id"]!);
    await expect(adapter.parseWebhook(refused.body, refused.headers)).rejects.toThrow(
      InvalidWebhookSignature,
    );

    // Still fine: the genuine delivery, untouched.
    expect(await adapter.parseWebhook(genuine.body, genuine.headers)).toMatchObject({ kind: "payment" });
  });

  test("an event for another webhook subscription is refused", async () => {
    const { providerRef } = await paidOrder();
    const delivery = paypal.captureEvent(providerRef);
    const elsewhere = createPayPalProvider({
      clientId: paypal.clientId,
      clientSecret: paypal.clientSecret,
      webhookId: "8PT597110X687430LKGECATA",
      apiBase: paypal.apiBase,
    });
    await expect(elsewhere.parseWebhook(delivery.body, delivery.headers)).rejects.toThrow(
      InvalidWebhookSignature,
    );
  });

  test("PayPal refusing our own access is thrown as an error, not blamed on the sender", async () => {
    const { adapter, providerRef } = await paidOrder();
    const delivery = paypal.captureEvent(providerRef);
    const verifyPath = "/v1/notifications/verify-webhook-signature";
    paypal.forbid(verifyPath);
    try {
      const failure = await adapter
        .parseWebhook(delivery.body, delivery.headers)
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(PayPalApiError);
      expect((failure as PayPalApiError).issue).toBe("PERMISSION_DENIED");
    } finally {
      paypal.allow(verifyPath);
    }
    expect(await adapter.parseWebhook(delivery.body, delivery.headers)).toMatchObject({ kind: "payment" });
  });

  test("a missing header or a body that is not an event is refused before asking PayPal", async () => {
    const { adapter, providerRef } = await paidOrder();
    const delivery = paypal.captureEvent(providerRef);
    const verifications = () => callsTo("/v1/notifications/verify-webhook-signature").length;
    const before = verifications();
    for (const header of Object.keys(delivery.headers).filter((h) => h.startsWith("paypal-"))) {
      const { [header]: _dropped, ...rest } = delivery.headers;
      await expect(adapter.parseWebhook(delivery.body, rest)).rejects.toThrow(
        new InvalidWebhookSignature(`missing ${header} header`),
      );
    }
    await expect(adapter.parseWebhook(Buffer.from("not json"), delivery.headers)).rejects.toThrow(
      InvalidWebhookSignature,
    );
    await expect(adapter.parseWebhook(Buffer.from("[1,2]"), delivery.headers)).rejects.toThrow(
      InvalidWebhookSignature,
    );
    expect(verifications()).toBe(before);
  });
});

describe("refund", () => {
  test("refunds part of the capture with our refund id, once however often it is asked", async () => {
    const { adapter, start, providerRef } = await paidOrder(5000);
    const request = { refundId: randomUUID(), orderId: start.orderId, providerRef, amountCents: 1999 };
    const first = await adapter.refund(request);
    expect(first).toEqual({ providerRefundRef: expect.any(String), state: "succeeded" });
    expect(first.providerRefundRef).not.toBe("");
    expect(await adapter.refund(request)).toEqual(first);
    const refunds = paypal.refundsOf(providerRef);
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({
      id: first.providerRefundRef,
      amount: { currency_code: "USD", value: "19.99" },
      custom_id: request.refundId,
      invoice_id: request.refundId,
    });
    const refundCalls = paypal.calls.filter((c) => c.path.endsWith("/refund"));
    expect(refundCalls.at(-1)?.requestId).toBe(`refund:${request.refundId}`);
  });

  test("a retried full refund answers succeeded again, though the capture is now fully refunded", async () => {
    const { adapter, start, providerRef } = await paidOrder(800);
    const request = { refundId: randomUUID(), orderId: start.orderId, providerRef, amountCents: 800 };
    const first = await adapter.refund(request);
    expect(first.state).toBe("succeeded");
    expect(await adapter.refund(request)).toEqual(first);
    // A different refund of the same money is PayPal's to refuse.
    expect(await adapter.refund({ ...request, refundId: randomUUID() })).toEqual({
      providerRefundRef: "",
      state: "failed",
      reason: "The capture has already been fully refunded. (CAPTURE_FULLY_REFUNDED)",
    });
  });

  test("PayPal's refusal is an answer with its reason, not an exception", async () => {
    const { adapter, start, providerRef } = await paidOrder(1000);
    paypal.failNextRefund(
      "REFUND_NOT_ALLOWED",
      "Full refund refused - partial refund has already been done on this payment.",
    );
    expect(
      await adapter.refund({
        refundId: randomUUID(),
        orderId: start.orderId,
        providerRef,
        amountCents: 1000,
      }),
    ).toEqual({
      providerRefundRef: "",
      state: "failed",
      reason:
        "Full refund refused - partial refund has already been done on this payment. (REFUND_NOT_ALLOWED)",
    });
    expect(
      await adapter.refund({
        refundId: randomUUID(),
        orderId: start.orderId,
        providerRef,
        amountCents: 1001,
      }),
    ).toMatchObject({ state: "failed", reason: expect.stringContaining("REFUND_AMOUNT_EXCEEDED") });
    expect(paypal.refundsOf(providerRef)).toHaveLength(0);
  });

  test("a refund PayPal accepts but has not paid yet is pending", async () => {
    const { adapter, start, providerRef } = await paidOrder(1000);
    paypal.holdNextRefund();
    expect(
      await adapter.refund({ refundId: randomUUID(), orderId: start.orderId, providerRef, amountCents: 300 }),
    ).toEqual({ providerRefundRef: expect.any(String), state: "pending" });
  });

  test("an order with no captured payment has nothing to refund", async () => {
    const adapter = provider();
    const start = payment();
    const { providerRef } = await adapter.start(start);
    expect(
      await adapter.refund({ refundId: randomUUID(), orderId: start.orderId, providerRef, amountCents: 100 }),
    ).toEqual({
      providerRefundRef: "",
      state: "failed",
      reason: "PayPal holds no captured payment for this order",
    });
  });

  test("PayPal out of reach is thrown, so the refund is tried again later", async () => {
    const unreachable = createPayPalProvider({
      clientId: paypal.clientId,
      clientSecret: paypal.clientSecret,
      webhookId: paypal.webhookId,
      apiBase: `http://127.0.0.1:${await freePort()}`,
      timeoutMs: 2000,
    });
    await expect(
      unreachable.refund({
        refundId: randomUUID(),
        orderId: randomUUID(),
        providerRef: "5O190127TN364715T",
        amountCents: 100,
      }),
    ).rejects.toThrow();
  });
});

describe("access token", () => {
  test("one token serves many calls, then a revoked one is replaced once and the call goes through", async () => {
    const adapter = provider();
    const issued = paypal.tokensIssued;
    const { providerRef } = await adapter.start(payment());
    await adapter.lookup(providerRef);
    await adapter.lookup(providerRef);
    expect(paypal.tokensIssued).toBe(issued + 1);

    paypal.revokeTokens();
    expect(await adapter.lookup(providerRef)).toEqual({ state: "pending" });
    expect(paypal.tokensIssued).toBe(issued + 2);
    const lookups = callsTo(`/v2/checkout/orders/${providerRef}`);
    expect(lookups).toHaveLength(4);
  });

  test("concurrent first calls share one token request", async () => {
    const adapter = provider();
    const issued = paypal.tokensIssued;
    await Promise.all([adapter.start(payment()), adapter.start(payment()), adapter.start(payment())]);
    expect(paypal.tokensIssued).toBe(issued + 1);
  });

  test("a token is renewed shortly before PayPal says it expires", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const adapter = provider();
    const issued = paypal.tokensIssued;
    const { providerRef } = await adapter.start(payment());
    vi.setSystemTime(Date.now() + (32_400 - 120) * 1000);
    await adapter.lookup(providerRef);
    expect(paypal.tokensIssued).toBe(issued + 1);
    vi.setSystemTime(Date.now() + 90 * 1000);
    await adapter.lookup(providerRef);
    expect(paypal.tokensIssued).toBe(issued + 2);
  });

  test("wrong credentials are thrown as PayPal's refusal, naming no secret", async () => {
    const wrong = createPayPalProvider({
      clientId: paypal.clientId,
      clientSecret: "not-the-secret",
      webhookId: paypal.webhookId,
      apiBase: paypal.apiBase,
    });
    const failure = await wrong.start(payment()).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(PayPalApiError);
    expect((failure as PayPalApiError).issue).toBe("invalid_client");
    expect(String(failure)).not.toContain("not-the-secret");
  });
});

describe("startSetup", () => {
  test("opens a setup token for the buyer's PayPal account and sends the buyer to PayPal to agree", async () => {
    const start = setup();
    const started = await provider().startSetup(start);
    expect(started.redirectUrl).toBe(
      `${paypal.apiBase}/agreements/approve?approval_session_id=${started.providerRef}`,
    );
    const token = paypal.setupToken(started.providerRef);
    expect(token).toMatchObject({
      status: "PAYER_ACTION_REQUIRED",
      payment_source: {
        paypal: { usage_type: "MERCHANT", customer_type: "CONSUMER", permit_multiple_payment_tokens: true },
      },
    });
    // PayPal made a customer for the first-time buyer: it is answered, to be kept for the next setup.
    expect(started.customerRef).toBe((token.customer as { id: string }).id);
    const create = callsTo("/v3/vault/setup-tokens").at(-1);
    expect(create?.requestId).toBe(`setup:${start.setupId}`);
    expect(create?.body).toMatchObject({
      payment_source: {
        paypal: {
          experience_context: {
            return_url: start.returnUrl,
            cancel_url: start.cancelUrl,
            shipping_preference: "NO_SHIPPING",
          },
        },
      },
    });
    expect(create?.body).not.toHaveProperty("customer");
  });

  test("a returning buyer's customer is passed on; the same setup answers the same token", async () => {
    const adapter = provider();
    const start = setup({ customerRef: "208743798" });
    const first = await adapter.startSetup(start);
    expect(first.customerRef).toBe("208743798");
    expect(callsTo("/v3/vault/setup-tokens").at(-1)?.body).toMatchObject({ customer: { id: "208743798" } });
    expect(await adapter.startSetup(start)).toEqual(first);
    expect(callsTo("/v3/vault/setup-tokens").at(-1)?.replayed).toBe(true);
    const other = await adapter.startSetup({ ...start, setupId: randomUUID() });
    expect(other.providerRef).not.toBe(first.providerRef);
  });

  test("a card is refused without asking PayPal: cards are saved through Stripe", async () => {
    const before = callsTo("/v3/vault/setup-tokens").length;
    await expect(provider().startSetup(setup({ kind: "card" }))).rejects.toThrow(/Stripe/);
    expect(callsTo("/v3/vault/setup-tokens")).toHaveLength(before);
  });
});

describe("completeSetup", () => {
  test("pending until the buyer approves; then the setup token becomes the saved PayPal account", async () => {
    const adapter = provider();
    const started = await adapter.startSetup(setup());
    const tokens = paypal.paymentTokenCount();
    expect(await adapter.completeSetup(started.providerRef, {})).toEqual({ state: "pending" });
    expect(paypal.paymentTokenCount()).toBe(tokens);

    paypal.approveSetup(started.providerRef, { email: "jo@example.com" });
    const saved = await adapter.completeSetup(started.providerRef, {
      approval_token_id: started.providerRef,
    });
    expect(saved).toEqual({
      state: "saved",
      method: {
        kind: "paypal",
        customerRef: started.customerRef,
        methodRef: expect.any(String),
        brand: "paypal",
        last4: null,
        expMonth: null,
        expYear: null,
        fingerprint: null,
        email: "jo@example.com",
      },
    });
    expect(paypal.paymentTokenCount()).toBe(tokens + 1);
    if (saved.state !== "saved") throw new Error("not saved");
    expect(paypal.paymentToken(saved.method.methodRef)).toMatchObject({
      customer: { id: started.customerRef },
    });
    expect(callsTo("/v3/vault/payment-tokens").at(-1)).toMatchObject({
      requestId: `token:${started.providerRef}`,
      body: { payment_source: { token: { id: started.providerRef, type: "SETUP_TOKEN" } } },
    });
  });

  test("asked again (the return page reloaded), it answers the same payment token and makes no other", async () => {
    const adapter = provider();
    const { providerRef } = await adapter.startSetup(setup());
    paypal.approveSetup(providerRef);
    const tokens = paypal.paymentTokenCount();
    const first = await adapter.completeSetup(providerRef, {});
    const again = await adapter.completeSetup(providerRef, {});
    expect(first.state).toBe("saved");
    expect(again).toEqual(first);
    expect(paypal.paymentTokenCount()).toBe(tokens + 1);
    // PayPal shows the setup token as used; the exchange is asked again under the same request id.
    expect(paypal.setupToken(providerRef).status).toBe("VAULTED");
    const exchanges = callsTo("/v3/vault/payment-tokens").filter(
      (c) => c.requestId === `token:${providerRef}`,
    );
    expect(exchanges.map((c) => c.replayed)).toEqual([false, true]);
  });

  test("a setup token PayPal has forgotten (it lapsed unused) is cancelled", async () => {
    const adapter = provider();
    const { providerRef } = await adapter.startSetup(setup());
    paypal.expireSetup(providerRef);
    expect(await adapter.completeSetup(providerRef, {})).toEqual({ state: "cancelled" });
  });

  test("PayPal out of order is thrown, and the next try saves the account", async () => {
    const adapter = provider();
    const { providerRef } = await adapter.startSetup(setup());
    paypal.approveSetup(providerRef);
    paypal.breakNext("/v3/vault/payment-tokens");
    await expect(adapter.completeSetup(providerRef, {})).rejects.toThrow(/failed with 500/);
    expect(await adapter.completeSetup(providerRef, {})).toMatchObject({ state: "saved" });
  });
});

describe("chargeSaved", () => {
  test("charges the saved account at once: paid, with PayPal's order as the reference", async () => {
    const method = await savedAccount();
    const charge = offSession(method, { amountCents: 4250 });
    const result = await provider().chargeSaved(charge);
    expect(result).toEqual({
      state: "paid",
      providerRef: expect.any(String),
      amountCents: 4250,
      currency: "usd",
    });
    if (result.state !== "paid") throw new Error("not paid");
    expect(paypal.order(result.providerRef)).toMatchObject({
      status: "COMPLETED",
      purchase_units: [
        {
          custom_id: charge.orderId,
          invoice_id: charge.orderId,
          description: charge.description,
          amount: { currency_code: "USD", value: "42.50" },
        },
      ],
    });
    expect(paypal.capturesOf(result.providerRef)).toBe(1);
    const create = callsTo("/v2/checkout/orders").at(-1);
    expect(create?.requestId).toBe(charge.idempotencyKey);
    expect(create?.body).toMatchObject({
      intent: "CAPTURE",
      payment_source: {
        paypal: {
          vault_id: method.methodRef,
          stored_credential: { payment_initiator: "MERCHANT", usage: "SUBSEQUENT" },
        },
      },
    });
  });

  test("the same key charges once however often it is asked; a new attempt is a new charge", async () => {
    const method = await savedAccount();
    const adapter = provider();
    const charge = offSession(method);
    const orders = paypal.orderCount();
    const first = await adapter.chargeSaved(charge);
    expect(first.state).toBe("paid");
    expect(await adapter.chargeSaved(charge)).toEqual(first);
    expect(paypal.orderCount()).toBe(orders + 1);
    if (first.state !== "paid") throw new Error("not paid");
    expect(paypal.capturesOf(first.providerRef)).toBe(1);
    const next = await adapter.chargeSaved({
      ...charge,
      orderId: randomUUID(),
      idempotencyKey: `${randomUUID()}:1`,
    });
    expect(next.providerRef).not.toBe(first.providerRef);
  });

  test("an order PayPal leaves approved is captured once, by the capture every path shares", async () => {
    const method = await savedAccount();
    paypal.decideVaultedCharges(method.methodRef, "approved");
    const adapter = provider();
    const charge = offSession(method, { amountCents: 999 });
    const first = await adapter.chargeSaved(charge);
    expect(first).toEqual({
      state: "paid",
      providerRef: expect.any(String),
      amountCents: 999,
      currency: "usd",
    });
    expect(await adapter.chargeSaved(charge)).toEqual(first);
    const ref = first.providerRef as string;
    expect(paypal.capturesOf(ref)).toBe(1);
    expect(callsTo(capturePath(ref)).map((c) => c.requestId)).toEqual([`capture:${ref}`, `capture:${ref}`]);
  });

  test("a capture held for review is pending; lookup of the order says the same", async () => {
    const method = await savedAccount();
    paypal.decideVaultedCharges(method.methodRef, "pending");
    const adapter = provider();
    const result = await adapter.chargeSaved(offSession(method));
    expect(result).toEqual({ state: "pending", providerRef: expect.any(String) });
    expect(await adapter.lookup(result.providerRef as string)).toEqual({ state: "pending" });
  });

  test("a declined capture, or the funding source refusing, is a soft decline: a later try may pass", async () => {
    const method = await savedAccount();
    const adapter = provider();
    paypal.decideVaultedCharges(method.methodRef, "declined");
    const declinedCapture = await adapter.chargeSaved(offSession(method));
    expect(declinedCapture).toEqual({
      state: "declined",
      providerRef: expect.any(String),
      reason: "PayPal declined the capture",
      hard: false,
    });

    for (const issue of ["INSTRUMENT_DECLINED", "TRANSACTION_REFUSED"]) {
      paypal.decideVaultedCharges(method.methodRef, { issue });
      const orders = paypal.orderCount();
      const charge = offSession(method);
      const refused = await adapter.chargeSaved(charge);
      expect(refused).toEqual({
        state: "declined",
        providerRef: null,
        reason: expect.stringContaining(`(${issue})`),
        hard: false,
      });
      // Asked again with the same key, PayPal gives the same answer.
      expect(await adapter.chargeSaved(charge)).toEqual(refused);
      expect(paypal.orderCount()).toBe(orders);
    }
    expect(PAYPAL_HARD_DECLINES.has("INSTRUMENT_DECLINED")).toBe(false);
  });

  test("a closed or restricted account, or a token PayPal does not know, is a hard decline", async () => {
    const method = await savedAccount();
    const adapter = provider();
    for (const issue of [
      "PAYER_ACCOUNT_LOCKED_OR_CLOSED",
      "PAYER_ACCOUNT_RESTRICTED",
      "AGREEMENT_ALREADY_CANCELLED",
    ]) {
      paypal.decideVaultedCharges(method.methodRef, { issue });
      expect(await adapter.chargeSaved(offSession(method))).toEqual({
        state: "declined",
        providerRef: null,
        reason: expect.stringContaining(`(${issue})`),
        hard: true,
      });
      expect(PAYPAL_HARD_DECLINES.has(issue)).toBe(true);
    }
    paypal.decideVaultedCharges(method.methodRef, { issue: "PAYER_ACCOUNT_LOCKED_OR_CLOSED" });
    expect(await adapter.chargeSaved(offSession(method))).toMatchObject({
      reason: "The payer account cannot be used for this transaction. (PAYER_ACCOUNT_LOCKED_OR_CLOSED)",
    });
    expect(await adapter.chargeSaved(offSession({ ...method, methodRef: "9xq4t2mz" }))).toMatchObject({
      state: "declined",
      providerRef: null,
      hard: true,
    });
  });

  test("PayPal out of order is thrown; the same key later charges once", async () => {
    const method = await savedAccount();
    const adapter = provider();
    const charge = offSession(method);
    paypal.breakNext("/v2/checkout/orders");
    await expect(adapter.chargeSaved(charge)).rejects.toThrow(/failed with 500/);
    const result = await adapter.chargeSaved(charge);
    expect(result).toMatchObject({ state: "paid", amountCents: 2599 });
    expect(paypal.capturesOf(result.providerRef as string)).toBe(1);
  });

  test("the charge is looked up and refunded through its order, like a page payment", async () => {
    const method = await savedAccount();
    const adapter = provider();
    const charge = offSession(method, { amountCents: 3000 });
    const result = await adapter.chargeSaved(charge);
    if (result.state !== "paid") throw new Error(`not paid: ${result.state}`);
    expect(await adapter.lookup(result.providerRef)).toEqual({
      state: "paid",
      amountCents: 3000,
      currency: "usd",
    });
    const request = {
      refundId: randomUUID(),
      orderId: charge.orderId,
      providerRef: result.providerRef,
      amountCents: 1200,
    };
    const refund = await adapter.refund(request);
    expect(refund).toEqual({ providerRefundRef: expect.any(String), state: "succeeded" });
    expect(await adapter.refund(request)).toEqual(refund);
    expect(paypal.refundsOf(result.providerRef)).toEqual([
      expect.objectContaining({
        id: refund.providerRefundRef,
        amount: { currency_code: "USD", value: "12.00" },
      }),
    ]);
    // A refund does not undo that the charge was paid.
    expect(await adapter.lookup(result.providerRef)).toMatchObject({ state: "paid" });
  });

  test("a saved account's payment token event is verified, then ignored: completeSetup made the token", async () => {
    const method = await savedAccount();
    const delivery = paypal.paymentTokenEvent(method.methodRef);
    expect(await provider().parseWebhook(delivery.body, delivery.headers)).toEqual({
      eventId: delivery.eventId,
      kind: "ignored",
      type: "VAULT.PAYMENT-TOKEN.CREATED",
    });
    const refused = paypal.paymentTokenEvent(method.methodRef);
    paypal.refuseVerification(refused.headers["paypal-transmission-id"]!);
    await expect(provider().parseWebhook(refused.body, refused.headers)).rejects.toThrow(
      InvalidWebhookSignature,
    );
  });
});

describe("the stand-in's raw member reader", () => {
  test("returns a member's text exactly as written", () => {
    const text = '{"a":"x}\\"","webhook_event": {"b": [1.0, {"c": "]"}]} ,"z":1}';
    expect(rawMember(text, "webhook_event")).toBe('{"b": [1.0, {"c": "]"}]}');
    expect(rawMember(text, "z")).toBe("1");
    expect(rawMember(text, "missing")).toBeNull();
  });
});

describe("forgetSaved", () => {
  test("deletes the removed account's payment token, so it cannot be charged; asked again, it is done", async () => {
    const method = await savedAccount();
    await provider().forgetSaved(method);
    const refused = await provider().chargeSaved(offSession(method));
    expect(refused).toMatchObject({ state: "declined", hard: true });
    expect(paypal.calls.filter((c) => c.method === "DELETE").map((c) => c.path)).toContain(
      `/v3/vault/payment-tokens/${method.methodRef}`,
    );
    // Deleted before (a retried job, or by the buyer at PayPal): PayPal has nothing left to delete.
    await provider().forgetSaved(method);
  });
});
