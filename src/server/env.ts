import { z } from "zod";
import { DEFAULT_REFUND_WINDOW_DAYS } from "#domain/refunds";

const booleanish = z
  .enum(["true", "false", "1", "0"])
  .transform((value) => value === "true" || value === "1");

const envSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    HOST: z.string().min(1).default("127.0.0.1"),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    DATA_DIR: z.string().min(1).default("./data"),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
      .optional(),
    AUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
    PUBLIC_URL: z.url().optional(),
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL")
      .optional(),
    /** Seconds to wait for the SMTP server to connect, greet or answer before the attempt is retried later. */
    SMTP_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(600).default(20),
    /** Seconds before a failed e-mail is first tried again; each later retry waits about twice as long. */
    MAIL_RETRY_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
    MAIL_FROM: z.string().min(3).default("Stackbay <no-reply@stackbay.test>"),
    SUPPORT_EMAIL: z.email().default("support@stackbay.test"),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    TRUST_PROXY: booleanish.default(false),
    /** Days after an order during which a refund can be requested and reseller commission stays pending. */
    REFUND_WINDOW_DAYS: z.coerce.number().int().min(0).max(365).default(DEFAULT_REFUND_WINDOW_DAYS),
    // Card and Apple Pay go through Stripe when its keys are set, PayPal when its keys are set; a method
    // without keys runs in test mode, which takes no money.
    STRIPE_SECRET_KEY: z
      .string()
      .regex(/^(sk|rk)_/, "must be a Stripe secret key (sk_… or rk_…)")
      .optional(),
    STRIPE_WEBHOOK_SECRET: z
      .string()
      .regex(/^whsec_/, "must be a Stripe webhook signing secret (whsec_…)")
      .optional(),
    STRIPE_API_BASE: z.url().optional(),
    PAYPAL_CLIENT_ID: z.string().min(10, "must be a PayPal REST client id").optional(),
    PAYPAL_CLIENT_SECRET: z.string().min(10, "must be a PayPal REST client secret").optional(),
    PAYPAL_WEBHOOK_ID: z.string().min(5, "must be the id of the PayPal webhook").optional(),
    PAYPAL_API_BASE: z.url().optional(),
    /** Signs the test provider's webhook events; derived from AUTH_SECRET when unset. */
    PAYMENTS_TEST_WEBHOOK_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
    /** Production refuses to boot with any method in test mode unless this says so. */
    ALLOW_TEST_PAYMENTS: booleanish.default(false),
    /** Minutes after which a payment never completed expires and its order fails. */
    PAYMENT_EXPIRY_MINUTES: z.coerce.number().int().min(5).max(10_080).default(60),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === "production" && !env.AUTH_SECRET) {
      ctx.addIssue({
        code: "custom",
        path: ["AUTH_SECRET"],
        message: "is required when NODE_ENV=production",
      });
    }
    // A key that can start payments without the secret that verifies their webhooks would leave every
    // order pending forever, so each provider's keys come as a set.
    const stripe = [env.STRIPE_SECRET_KEY, env.STRIPE_WEBHOOK_SECRET];
    if (stripe.some(Boolean) && !stripe.every(Boolean)) {
      ctx.addIssue({
        code: "custom",
        path: [env.STRIPE_SECRET_KEY ? "STRIPE_WEBHOOK_SECRET" : "STRIPE_SECRET_KEY"],
        message:
          "is missing: STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET must be set together (the secret key starts payments, the webhook secret verifies their results)",
      });
    }
    const paypal = [env.PAYPAL_CLIENT_ID, env.PAYPAL_CLIENT_SECRET, env.PAYPAL_WEBHOOK_ID];
    if (paypal.some(Boolean) && !paypal.every(Boolean)) {
      ctx.addIssue({
        code: "custom",
        path: [
          !env.PAYPAL_CLIENT_ID
            ? "PAYPAL_CLIENT_ID"
            : !env.PAYPAL_CLIENT_SECRET
              ? "PAYPAL_CLIENT_SECRET"
              : "PAYPAL_WEBHOOK_ID",
        ],
        message:
          "is missing: PAYPAL_CLIENT_ID, PAYPAL_CLIENT_SECRET and PAYPAL_WEBHOOK_ID must be set together (the client id and secret start payments, the webhook id verifies their results)",
      });
    }
    if (env.NODE_ENV === "production" && !env.ALLOW_TEST_PAYMENTS && testModeMethods(env).length > 0) {
      ctx.addIssue({
        code: "custom",
        path: ["ALLOW_TEST_PAYMENTS"],
        message: `must be true to run in production with payments in test mode (no money is taken for: ${testModeMethods(env).join(", ")}); set STRIPE_SECRET_KEY with STRIPE_WEBHOOK_SECRET, and PAYPAL_CLIENT_ID with PAYPAL_CLIENT_SECRET and PAYPAL_WEBHOOK_ID`,
      });
    }
  });

/** The checkout methods that have no provider keys and so run in test mode. */
export function testModeMethods(env: { STRIPE_SECRET_KEY?: string; PAYPAL_CLIENT_ID?: string }): string[] {
  return [
    ...(env.STRIPE_SECRET_KEY ? [] : ["stripe", "apple-pay"]),
    ...(env.PAYPAL_CLIENT_ID ? [] : ["paypal"]),
  ];
}

export type Env = z.infer<typeof envSchema>;

export class EnvError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid environment:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "EnvError";
  }
}

/** Parses the environment once at boot; every bad variable is listed, not just the first. */
export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  // An empty variable means "not set", as in most shells' `FOO= npm start`.
  const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ""));
  const result = envSchema.safeParse(present);
  if (!result.success) {
    throw new EnvError(result.error.issues.map((issue) => `${issue.path.join(".")} ${issue.message}`));
  }
  return result.data;
}

export function publicUrl(env: Env): string {
  return env.PUBLIC_URL ?? `http://${env.HOST}:${env.PORT}`;
}
