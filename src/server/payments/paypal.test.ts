import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { centsToValue, createPayPalProvider, PayPalApiError, valueToCents } from "#server/payments/paypal";
import { InvalidWebhookSignature, type PaymentStart } from "#server/payments/provider";
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

describe("the stand-in's raw member reader", () => {
  test("returns a member's text exactly as written", () => {
    const text = '{"a":"x}\\"","webhook_event": {"b": [1.0, {"c": "]"}]} ,"z":1}';
    expect(rawMember(text, "webhook_event")).toBe('{"b": [1.0, {"c": "]"}]}');
    expect(rawMember(text, "z")).toBe("1");
    expect(rawMember(text, "missing")).toBeNull();
  });
});
