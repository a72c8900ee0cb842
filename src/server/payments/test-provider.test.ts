import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { loadEnv } from "#server/env";
import type { PaymentProvider } from "#server/payments/provider";
import { InvalidWebhookSignature } from "#server/payments/provider";
import { providersFromEnv } from "#server/payments/registry";
import { createTestProvider, signTestEvent, testWebhookSecret } from "#server/payments/test-provider";
import { createTestDatabase } from "#server/test/app";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase("migrated");
});
afterAll(() => database.close());

const provider = () =>
  createTestProvider({ db: database.db, secret: "s".repeat(32), publicUrl: "https://shop.example/" });

async function paidSession(test = provider(), amountCents = 1000) {
  const started = await test.start({
    orderId: randomUUID(),
    idempotencyKey: randomUUID(),
    amountCents,
    description: "Stackbay order 12345678",
    email: "buyer@example.com",
    returnUrl: "https://shop.example/checkout/complete?order=x",
    cancelUrl: "https://shop.example/checkout/complete?order=x&cancelled=1",
  });
  await test.decide(started.providerRef, "pay");
  return { test, ref: started.providerRef };
}

describe("the test provider", () => {
  test("the same idempotency key opens the same session, on our own hosted page", async () => {
    const test = provider();
    const payment = {
      orderId: randomUUID(),
      idempotencyKey: randomUUID(),
      amountCents: 500,
      description: "d",
      email: "e@example.com",
      returnUrl: "https://shop.example/r",
      cancelUrl: "https://shop.example/c",
    };
    const first = await test.start(payment);
    expect(first.redirectUrl).toBe(`https://shop.example/pay/test/${first.providerRef}`);
    expect(await test.start(payment)).toEqual(first);
    expect(await test.lookup(first.providerRef)).toEqual({ state: "pending" });
    // The first choice stands.
    expect((await test.decide(first.providerRef, "decline")).event?.type).toBe("payment.failed");
    expect((await test.decide(first.providerRef, "pay")).event).toBeNull();
    expect(await test.complete(first.providerRef, {})).toMatchObject({ state: "failed" });
  });

  test("refunds succeed up to what was paid, once per refund id, and a control fails the next one", async () => {
    const { test, ref } = await paidSession();
    const refund = (amountCents: number, refundId = randomUUID()) =>
      test.refund({ refundId, orderId: randomUUID(), providerRef: ref, amountCents });
    const first = randomUUID();
    expect(await refund(600, first)).toMatchObject({ state: "succeeded" });
    expect(await refund(600, first)).toMatchObject({ state: "succeeded" });
    expect(await refund(500)).toMatchObject({
      state: "failed",
      reason: "refund of 500 cents exceeds the 400 cents left to refund",
    });
    test.controls.failNextRefund = "bank unavailable";
    expect(await refund(100)).toMatchObject({ state: "failed", reason: "bank unavailable" });
    expect(await refund(400)).toMatchObject({ state: "succeeded" });
  });

  test("webhooks verify over the exact bytes, within five minutes", async () => {
    const { test, ref } = await paidSession();
    const body = JSON.stringify({
      id: "evt_1",
      type: "payment.succeeded",
      data: { ref, orderId: null, amountCents: 1000, reason: null },
    });
    const header = (signature: string) => ({ "test-signature": signature });
    const now = new Date();
    expect(await test.parseWebhook(Buffer.from(body), header(signTestEvent(test.secret, body, now)))).toEqual(
      {
        eventId: "evt_1",
        kind: "payment",
        providerRef: ref,
        orderId: null,
        result: { state: "paid", amountCents: 1000, currency: "usd" },
      },
    );
    const stale = signTestEvent(test.secret, body, new Date(now.getTime() - 301_000));
    await expect(test.parseWebhook(Buffer.from(body), header(stale))).rejects.toBeInstanceOf(
      InvalidWebhookSignature,
    );
    await expect(
      test.parseWebhook(Buffer.from(`${body}\n`), header(signTestEvent(test.secret, body))),
    ).rejects.toBeInstanceOf(InvalidWebhookSignature);
    await expect(test.parseWebhook(Buffer.from(body), {})).rejects.toBeInstanceOf(InvalidWebhookSignature);
  });

  test("the webhook secret is PAYMENTS_TEST_WEBHOOK_SECRET, or derived from AUTH_SECRET", () => {
    const a = testWebhookSecret({ AUTH_SECRET: "a".repeat(32) });
    expect(a).toBe(testWebhookSecret({ AUTH_SECRET: "a".repeat(32) }));
    expect(a).not.toBe(testWebhookSecret({ AUTH_SECRET: "b".repeat(32) }));
    expect(
      testWebhookSecret({ AUTH_SECRET: "a".repeat(32), PAYMENTS_TEST_WEBHOOK_SECRET: "c".repeat(32) }),
    ).toBe("c".repeat(32));
  });
});

describe("providers by method", () => {
  const fake = (name: "stripe" | "paypal") => ({ name }) as PaymentProvider;
  const base = { AUTH_SECRET: "a".repeat(32) };

  test("without keys every method runs in test mode", () => {
    const providers = providersFromEnv(loadEnv(base), { db: database.db });
    expect(providers.forMethod("stripe").name).toBe("test");
    expect(providers.forMethod("paypal").name).toBe("test");
    expect(providers.config.testMode).toBe(true);
    expect(providers.byName("stripe")).toBeNull();
    expect(providers.bankTransfer.details.demo).toBe(true);
  });

  test("Stripe keys send card and Apple Pay to Stripe; PayPal stays in test mode", () => {
    const env = loadEnv({ ...base, STRIPE_SECRET_KEY: "sk_test_x", STRIPE_WEBHOOK_SECRET: "whsec_x" });
    const seen: unknown[] = [];
    const providers = providersFromEnv(env, {
      db: database.db,
      factories: {
        stripe: (config) => {
          seen.push(config);
          return fake("stripe");
        },
      },
    });
    expect(seen).toEqual([{ secretKey: "sk_test_x", webhookSecret: "whsec_x" }]);
    expect(providers.forMethod("stripe").name).toBe("stripe");
    expect(providers.forMethod("apple-pay").name).toBe("stripe");
    expect(providers.forMethod("paypal").name).toBe("test");
    expect(providers.config).toEqual({
      testMode: true,
      methods: [
        { method: "stripe", provider: "stripe" },
        { method: "paypal", provider: "test" },
        { method: "apple-pay", provider: "stripe" },
        { method: "bank-transfer", provider: "test" },
      ],
    });
  });

  test("all keys: no test mode and no test provider; the real adapters by default; keys without an adapter refuse to start", () => {
    const env = loadEnv({
      ...base,
      STRIPE_SECRET_KEY: "sk_test_x",
      STRIPE_WEBHOOK_SECRET: "whsec_x",
      PAYPAL_CLIENT_ID: "paypal-client",
      PAYPAL_CLIENT_SECRET: "paypal-secret",
      PAYPAL_WEBHOOK_ID: "WH-12345",
      PAYPAL_API_BASE: "https://api-m.sandbox.paypal.com",
      BANK_ACCOUNT_NAME: "Stackbay FZ-LLC",
      BANK_NAME: "Emirates NBD",
      BANK_IBAN: "AE070331234567890123456",
      BANK_SWIFT: "EBILADAD",
    });
    const providers = providersFromEnv(env, {
      db: database.db,
      factories: { stripe: () => fake("stripe"), paypal: () => fake("paypal") },
    });
    expect(providers.config.testMode).toBe(false);
    expect(providers.config.methods).toContainEqual({ method: "bank-transfer", provider: "bank" });
    expect(providers.bankTransfer.details).toMatchObject({ accountName: "Stackbay FZ-LLC", demo: false });
    expect(() => providers.forMethod("bank-transfer")).toThrow(/not paid through a provider/);
    expect(providers.test).toBeNull();
    expect(providers.byName("test")).toBeNull();
    const real = providersFromEnv(env, { db: database.db });
    expect(real.forMethod("stripe").name).toBe("stripe");
    expect(real.forMethod("apple-pay").name).toBe("stripe");
    expect(real.forMethod("paypal").name).toBe("paypal");
    expect(() => providersFromEnv(env, { db: database.db, factories: {} })).toThrow(/no Stripe adapter/);
  });
});
