import { BANK_TRANSFER_METHOD, type BankDetails } from "#domain/bank-transfer";
import type { PaymentMethod } from "#domain/checkout";
import { paymentMethods } from "#domain/checkout";
import type { PaymentsConfig } from "#domain/payments";
import type { Database } from "#server/db/client";
import { type Env, publicUrl } from "#server/env";
import { createPayPalProvider } from "#server/payments/paypal";
import type { PaymentProvider, ProviderName } from "#server/payments/provider";
import { createStripeProvider } from "#server/payments/stripe";
import { createTestProvider, type TestProvider, testWebhookSecret } from "#server/payments/test-provider";

export type StripeConfig = {
  secretKey: string;
  webhookSecret: string;
  connectWebhookSecret?: string;
  apiBase?: string;
};
export type PayPalConfig = { clientId: string; clientSecret: string; webhookId: string; apiBase?: string };

/** How the real adapters are built: the Stripe and PayPal adapters, unless a test passes others. */
export type ProviderFactories = {
  stripe?: (config: StripeConfig) => PaymentProvider;
  paypal?: (config: PayPalConfig) => PaymentProvider;
};

/** The providers this app takes payments with, by checkout method and by name (for webhooks). */
export type PaymentProviders = {
  forMethod(method: PaymentMethod): PaymentProvider;
  /** The provider of that name if any method uses it; webhooks for any other are refused. */
  byName(name: string): PaymentProvider | null;
  /** The test provider when some method runs in test mode, else null. */
  test: TestProvider | null;
  /** What `GET /api/payments/config` answers. */
  config: PaymentsConfig;
  /** Bank transfers: the account buyers pay into (demo details in test mode) and how long they have. */
  bankTransfer: BankTransferSetup;
};

export type BankTransferSetup = {
  details: BankDetails;
  expiryDays: number;
  /** Business days ahead that a renewal paid by transfer is invoiced (BANK_TRANSFER_RENEWAL_LEAD_BUSINESS_DAYS). */
  renewalLeadBusinessDays: number;
};

/**
 * Details nobody can pay into, for development and test mode: `demo` marks them on every screen and
 * e-mail. The IBAN is the ISO 13616 example format for the UAE with a valid check, the bank is made up.
 */
const demoBankDetails: BankDetails = {
  accountName: "Stackbay Demo Account (test mode)",
  bankName: "Demo Bank — do not send money",
  iban: "AE070331234567890123456",
  swift: "DEMOAEXX",
  accountNumber: null,
  ifsc: null,
  demo: true,
};

/** The operator's account from configuration, or the demo details when none is set. */
export function bankTransferSetupOf(env: Env): BankTransferSetup {
  const configured = env.BANK_ACCOUNT_NAME && env.BANK_NAME && env.BANK_IBAN && env.BANK_SWIFT;
  return {
    details: configured
      ? {
          accountName: env.BANK_ACCOUNT_NAME ?? "",
          bankName: env.BANK_NAME ?? "",
          iban: env.BANK_IBAN ?? "",
          swift: env.BANK_SWIFT ?? "",
          accountNumber: env.BANK_ACCOUNT_NUMBER ?? null,
          ifsc: env.BANK_IFSC ?? null,
          demo: false,
        }
      : demoBankDetails,
    expiryDays: env.BANK_TRANSFER_EXPIRY_DAYS,
    renewalLeadBusinessDays: env.BANK_TRANSFER_RENEWAL_LEAD_BUSINESS_DAYS,
  };
}

/** Which provider each method goes through: its real one when its keys are set, else test mode. */
function providerNameOf(method: Exclude<PaymentMethod, typeof BANK_TRANSFER_METHOD>, env: Env): ProviderName {
  if (method === "paypal") return env.PAYPAL_CLIENT_ID ? "paypal" : "test";
  return env.STRIPE_SECRET_KEY ? "stripe" : "test";
}

/**
 * Builds the providers the environment asks for. Keys for a provider whose factory this build lacks
 * are a configuration error, never a silent fall back to test mode.
 */
export function providersFromEnv(
  env: Env,
  deps: { db: Database; factories?: ProviderFactories; log?: { warn(obj: object, msg: string): void } },
): PaymentProviders {
  const factories: ProviderFactories = deps.factories ?? {
    stripe: createStripeProvider,
    paypal: createPayPalProvider,
  };
  const byName = new Map<ProviderName, PaymentProvider>();
  // Bank transfers go through no provider: an admin records the money the operator's bank received.
  const methods = paymentMethods.flatMap(({ value }) =>
    value === BANK_TRANSFER_METHOD ? [] : [{ method: value, provider: providerNameOf(value, env) }],
  );
  const bankTransfer = bankTransferSetupOf(env);
  const used = new Set(methods.map((m) => m.provider));

  let test: TestProvider | null = null;
  if (used.has("test")) {
    test = createTestProvider({
      db: deps.db,
      secret: testWebhookSecret(env),
      publicUrl: publicUrl(env),
      log: deps.log,
    });
    byName.set("test", test);
  }
  if (used.has("stripe") && env.STRIPE_SECRET_KEY && env.STRIPE_WEBHOOK_SECRET) {
    if (!factories.stripe)
      throw new Error("STRIPE_SECRET_KEY is set but no Stripe adapter was given to providersFromEnv");
    byName.set(
      "stripe",
      factories.stripe({
        secretKey: env.STRIPE_SECRET_KEY,
        webhookSecret: env.STRIPE_WEBHOOK_SECRET,
        ...(env.STRIPE_CONNECT_WEBHOOK_SECRET
          ? { connectWebhookSecret: env.STRIPE_CONNECT_WEBHOOK_SECRET }
          : {}),
        ...(env.STRIPE_API_BASE ? { apiBase: env.STRIPE_API_BASE } : {}),
      }),
    );
  }
  if (used.has("paypal") && env.PAYPAL_CLIENT_ID && env.PAYPAL_CLIENT_SECRET && env.PAYPAL_WEBHOOK_ID) {
    if (!factories.paypal)
      throw new Error("PAYPAL_CLIENT_ID is set but no PayPal adapter was given to providersFromEnv");
    byName.set(
      "paypal",
      factories.paypal({
        clientId: env.PAYPAL_CLIENT_ID,
        clientSecret: env.PAYPAL_CLIENT_SECRET,
        webhookId: env.PAYPAL_WEBHOOK_ID,
        ...(env.PAYPAL_API_BASE ? { apiBase: env.PAYPAL_API_BASE } : {}),
      }),
    );
  }

  return {
    forMethod(method) {
      if (method === BANK_TRANSFER_METHOD) throw new Error("bank transfers are not paid through a provider");
      const name = methods.find((m) => m.method === method)?.provider ?? "test";
      const provider = byName.get(name);
      if (!provider) throw new Error(`no payment provider for ${method}`);
      return provider;
    },
    byName: (name) => byName.get(name as ProviderName) ?? null,
    test,
    config: {
      testMode: test !== null || bankTransfer.details.demo,
      methods: [
        ...methods,
        { method: BANK_TRANSFER_METHOD, provider: bankTransfer.details.demo ? "test" : "bank" },
      ],
    },
    bankTransfer,
  };
}
