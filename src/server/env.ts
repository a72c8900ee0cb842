import { createPrivateKey } from "node:crypto";
import { z } from "zod";
import { DEFAULT_BANK_TRANSFER_EXPIRY_DAYS } from "#domain/bank-transfer";
import { DEFAULT_LICENSE_ACTIVATION_STALE_DAYS } from "#domain/licenses";
import { DEFAULT_REFUND_WINDOW_DAYS } from "#domain/refunds";
import { DEFAULT_DELIVERY_CONFIRM_DAYS } from "#domain/shipping";

const booleanish = z
  .enum(["true", "false", "1", "0"])
  .transform((value) => value === "true" || value === "1");

/** An IBAN's own check (ISO 13616: the rearranged number mod 97 is 1), so a typo fails at boot, not at the bank. */
function isIban(text: string): boolean {
  const compact = text.replace(/\s/g, "").toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/.test(compact)) return false;
  const digits = [...(compact.slice(4) + compact.slice(0, 4))]
    .map((c) => (c >= "A" ? String(c.charCodeAt(0) - 55) : c))
    .join("");
  let rest = 0;
  for (const d of digits) rest = (rest * 10 + Number(d)) % 97;
  return rest === 1;
}

/** A PKCS#8 PEM, or PKCS#8 DER in base64, holding an Ed25519 private key. */
export function isEd25519PrivateKey(text: string): boolean {
  try {
    const key = text.includes("-----BEGIN")
      ? createPrivateKey(text)
      : createPrivateKey({ key: Buffer.from(text.trim(), "base64"), format: "der", type: "pkcs8" });
    return key.asymmetricKeyType === "ed25519";
  } catch {
    return false;
  }
}

/** The operator's bank account: all of them, or none (bank transfer then runs in test mode). */
const bankVariables = ["BANK_ACCOUNT_NAME", "BANK_NAME", "BANK_IBAN", "BANK_SWIFT"] as const;

/** What the s3 storage driver cannot run without. */
const s3RequiredVariables = [
  "S3_BUCKET",
  "S3_ACCESS_KEY_ID",
  "S3_SECRET_ACCESS_KEY",
  "S3_PUBLIC_BASE_URL",
] as const;

/** A public profile the footer links to: an https address, nothing else. */
const socialUrl = z.url({ protocol: /^https$/, error: "must be an https:// address" }).optional();

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
    /**
     * Mean event-loop delay (ms) over which requests are refused at once with 503 and Retry-After rather
     * than answered slowly (decision 0018). 0 turns the check off; unset means 250 in
     * production and off otherwise (one busy machine and PGlite's synchronous work would trip it).
     */
    OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: z.coerce.number().int().min(0).max(60_000).optional(),
    /** Requests waiting for a PostgreSQL connection over which new requests get 503 at once; 0 is off. */
    OVERLOAD_MAX_WAITING_QUERIES: z.coerce.number().int().min(0).max(100_000).default(25),
    /**
     * Pages one client address may have drawn afresh on the server per minute (decision 0020); past it,
     * it gets the app's shell and its browser draws the page. Kept pages served again do not count.
     */
    PAGE_RENDERS_PER_MINUTE: z.coerce.number().int().min(0).max(100_000).default(20),
    /**
     * A search with more matches than this has its first pages ranked among candidates an index reads in
     * order (decision 0017) rather than by scoring every match; tests lower it to reach that path.
     */
    SEARCH_RANK_EXACT_UP_TO: z.coerce.number().int().min(0).max(1_000_000).default(2_000),
    /**
     * Listings whose facet counts would scan more rows than this get counts estimated from a sample of
     * the catalogue, flagged `estimated` (decision 0017); tests lower it to reach that path.
     */
    SEARCH_FACETS_EXACT_UP_TO: z.coerce.number().int().min(0).max(1_000_000).default(5_000),
    /**
     * The bearer token a Prometheus scraper sends to read GET /metrics; unset, /metrics does not exist
     * (404), so the counts of a site are never public.
     */
    METRICS_TOKEN: z.string().min(32, "must be at least 32 characters").optional(),
    /**
     * Seconds between a SIGTERM and closing the server, during which /api/health/ready answers 503 so a
     * load balancer stops sending requests first; unset means 5 in production and 0 otherwise.
     */
    SHUTDOWN_GRACE_SECONDS: z.coerce.number().int().min(0).max(120).optional(),
    /** The Retry-After (seconds) of those 503 answers. */
    OVERLOAD_RETRY_AFTER_SECONDS: z.coerce.number().int().min(1).max(3600).default(2),
    /** Days after an order during which a refund can be requested and reseller commission stays pending. */
    REFUND_WINDOW_DAYS: z.coerce.number().int().min(0).max(365).default(DEFAULT_REFUND_WINDOW_DAYS),
    /** Days after shipping when an item the buyer has not confirmed counts as delivered. */
    DELIVERY_CONFIRM_DAYS: z.coerce.number().int().min(1).max(120).default(DEFAULT_DELIVERY_CONFIRM_DAYS),
    /** The smallest balance a payout batch pays (USD); smaller balances wait for a later batch. */
    PAYOUT_MINIMUM_USD: z.coerce.number().min(0).max(1_000_000).default(50),
    /** Hours after payout details change during which payout batches leave the payee out. */
    PAYOUT_COOLING_OFF_HOURS: z.coerce.number().int().min(0).max(720).default(72),
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
    /** Signing secret of the Connect endpoint (events of sellers' connected accounts), when it is another endpoint. */
    STRIPE_CONNECT_WEBHOOK_SECRET: z
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
    // The operator's account that bank transfers are paid into; without it the method runs in test
    // mode with demo details.
    BANK_ACCOUNT_NAME: z.string().trim().min(2, "must be the account holder's name").max(140).optional(),
    BANK_NAME: z.string().trim().min(2, "must be the bank's name").max(140).optional(),
    BANK_IBAN: z
      .string()
      .refine(isIban, "must be a valid IBAN (country code, check digits and account, e.g. AE07…)")
      .transform((v) => v.replace(/\s/g, "").toUpperCase())
      .optional(),
    BANK_SWIFT: z
      .string()
      .regex(/^[A-Za-z]{6}[A-Za-z0-9]{2}([A-Za-z0-9]{3})?$/, "must be a SWIFT/BIC code of 8 or 11 characters")
      .transform((v) => v.toUpperCase())
      .optional(),
    BANK_ACCOUNT_NUMBER: z
      .string()
      .regex(/^\d{6,18}$/, "must be an account number of 6 to 18 digits")
      .optional(),
    BANK_IFSC: z
      .string()
      .regex(/^[A-Za-z]{4}0[A-Za-z0-9]{6}$/, "must be an Indian IFSC code (4 letters, 0, 6 characters)")
      .transform((v) => v.toUpperCase())
      .optional(),
    /**
     * The operator's UAE Tax Registration Number, printed on every invoice (Stackbay FZCO is the
     * merchant of record). Required in production; elsewhere invoices print a demo number.
     */
    OPERATOR_TRN: z
      .string()
      .transform((v) => v.replace(/[\s-]/g, ""))
      .pipe(z.string().regex(/^100\d{12}$/, "must be a UAE TRN: 15 digits starting with 100"))
      .optional(),
    /**
     * The EU Commission's VIES REST API, which confirms a business buyer's EU VAT number before its
     * reverse charge (no credentials needed); another address for a local stand-in in tests.
     */
    VIES_API_BASE: z
      .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
      .transform((v) => v.replace(/\/+$/, ""))
      .default("https://ec.europa.eu/taxation_customs/vies/rest-api"),
    /**
     * The operator's own EU VAT number (with its prefix) given to VIES as the requester, so that every
     * check gets a consultation number kept on the order as proof; unset, VIES answers without one.
     */
    VIES_REQUESTER_VAT: z
      .string()
      .transform((v) => v.replace(/[\s.-]/g, "").toUpperCase())
      .pipe(z.string().regex(/^[A-Z]{2}[0-9A-Z]{2,13}$/, "must be an EU VAT number with its prefix"))
      .optional(),
    /** HMRC's API platform, for "Check a UK VAT number" (v2.0); another address for a stand-in. */
    HMRC_API_BASE: z
      .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
      .transform((v) => v.replace(/\/+$/, ""))
      .default("https://api.service.hmrc.gov.uk"),
    /**
     * An HMRC Developer Hub application's credentials (client credentials grant); without them UK VAT
     * numbers cannot be checked, so UK businesses are charged VAT and told they can reclaim it.
     */
    HMRC_CLIENT_ID: z.string().min(10, "must be an HMRC application's client id").optional(),
    HMRC_CLIENT_SECRET: z.string().min(10, "must be an HMRC application's client secret").optional(),
    /** The operator's UK VAT registration number (9 digits), so HMRC answers a consultation number. */
    HMRC_REQUESTER_VRN: z
      .string()
      .transform((v) => v.replace(/\s/g, "").replace(/^GB/i, ""))
      .pipe(z.string().regex(/^\d{9}$/, "must be a UK VAT registration number: 9 digits"))
      .optional(),
    /** Where uploads live: `local` (DATA_DIR/uploads) or `s3` (an S3-compatible bucket, the S3_* variables). */
    STORAGE_DRIVER: z.enum(["local", "s3"], { error: "must be local or s3" }).default("local"),
    S3_BUCKET: z.string().trim().min(3, "must be a bucket name").optional(),
    S3_REGION: z.string().trim().min(1).default("us-east-1"),
    /** An S3-compatible server (MinIO, R2, ...); unset means AWS S3 itself. */
    S3_ENDPOINT: z
      .url({ protocol: /^https?$/, error: "must be the server's URL, e.g. https://s3.example.com" })
      .optional(),
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    /** Where the bucket's objects are publicly readable, without a trailing slash needed (a CDN, say). */
    S3_PUBLIC_BASE_URL: z
      .url({ protocol: /^https?$/, error: "must be an http(s) URL, e.g. https://cdn.example.com/uploads" })
      .refine((v) => !/[?#]/.test(v), "must not have a query or fragment")
      .transform((v) => v.replace(/\/+$/, ""))
      .optional(),
    /** Bucket in the path (`endpoint/bucket/key`), as most self-hosted S3-compatible servers want. */
    S3_FORCE_PATH_STYLE: booleanish.default(false),
    /** The footer's social links (`socialNetworks` in `#domain/site-links`): each shown only when set. */
    SOCIAL_LINKEDIN_URL: socialUrl,
    SOCIAL_X_URL: socialUrl,
    SOCIAL_GITHUB_URL: socialUrl,
    SOCIAL_YOUTUBE_URL: socialUrl,
    /** Days a bank-transfer order waits for its money before it expires. */
    BANK_TRANSFER_EXPIRY_DAYS: z.coerce
      .number()
      .int()
      .min(1)
      .max(60)
      .default(DEFAULT_BANK_TRANSFER_EXPIRY_DAYS),
    /**
     * Business days before its due date that a renewal paid by bank transfer is invoiced (its pro-forma
     * invoice and transfer instructions sent), when that is earlier than the usual lead.
     */
    BANK_TRANSFER_RENEWAL_LEAD_BUSINESS_DAYS: z.coerce.number().int().min(1).max(30).default(10),
    /** Days a licence's activation may go without a check-in before the daily job frees its seat. */
    LICENSE_ACTIVATION_STALE_DAYS: z.coerce
      .number()
      .int()
      .min(1)
      .max(3650)
      .default(DEFAULT_LICENSE_ACTIVATION_STALE_DAYS),
    /**
     * The Ed25519 private key that signs offline licence files: a PKCS#8 PEM, or its DER in base64.
     * Required in production; elsewhere one is generated once and kept in DATA_DIR (never in the repo).
     */
    LICENSE_SIGNING_KEY: z
      .string()
      .refine(isEd25519PrivateKey, "must be an Ed25519 private key: a PKCS#8 PEM, or its DER in base64")
      .optional(),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === "production" && !env.AUTH_SECRET) {
      ctx.addIssue({
        code: "custom",
        path: ["AUTH_SECRET"],
        message: "is required when NODE_ENV=production",
      });
    }
    if (env.NODE_ENV === "production" && !env.LICENSE_SIGNING_KEY) {
      ctx.addIssue({
        code: "custom",
        path: ["LICENSE_SIGNING_KEY"],
        message:
          "is required when NODE_ENV=production (the Ed25519 key that signs offline licence files; make one with `openssl genpkey -algorithm ed25519`)",
      });
    }
    if (env.NODE_ENV === "production" && !env.OPERATOR_TRN) {
      ctx.addIssue({
        code: "custom",
        path: ["OPERATOR_TRN"],
        message: "is required when NODE_ENV=production (the operator's TRN printed on every invoice)",
      });
    }
    const hmrc = [env.HMRC_CLIENT_ID, env.HMRC_CLIENT_SECRET];
    if (hmrc.some(Boolean) && !hmrc.every(Boolean)) {
      ctx.addIssue({
        code: "custom",
        path: [env.HMRC_CLIENT_ID ? "HMRC_CLIENT_SECRET" : "HMRC_CLIENT_ID"],
        message: "is missing: HMRC_CLIENT_ID and HMRC_CLIENT_SECRET must be set together",
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
    // Each secret vouches only for its own endpoint's events (decision 0009): one secret in both places
    // would refuse every connected account's event.
    if (
      env.STRIPE_CONNECT_WEBHOOK_SECRET &&
      env.STRIPE_CONNECT_WEBHOOK_SECRET === env.STRIPE_WEBHOOK_SECRET
    ) {
      ctx.addIssue({
        code: "custom",
        path: ["STRIPE_CONNECT_WEBHOOK_SECRET"],
        message:
          "must be the Connect endpoint's own signing secret, not STRIPE_WEBHOOK_SECRET's; leave it unset when one endpoint receives both",
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
    // Half an account would show buyers details they cannot pay into, so the details come as a set.
    const bank = bankVariables.map((name) => [name, env[name]] as const);
    if (bank.some(([, value]) => value) && !bank.every(([, value]) => value)) {
      ctx.addIssue({
        code: "custom",
        path: [bank.find(([, value]) => !value)?.[0] ?? "BANK_IBAN"],
        message: `is missing: ${bankVariables.join(", ")} must be set together (the account buyers transfer to)`,
      });
    }
    const india = [env.BANK_ACCOUNT_NUMBER, env.BANK_IFSC];
    if (india.some(Boolean) && !india.every(Boolean)) {
      ctx.addIssue({
        code: "custom",
        path: [env.BANK_ACCOUNT_NUMBER ? "BANK_IFSC" : "BANK_ACCOUNT_NUMBER"],
        message:
          "is missing: BANK_ACCOUNT_NUMBER and BANK_IFSC must be set together (India's domestic details)",
      });
    }
    if (env.STORAGE_DRIVER === "s3") {
      for (const name of s3RequiredVariables) {
        if (!env[name])
          ctx.addIssue({
            code: "custom",
            path: [name],
            message: `is required when STORAGE_DRIVER=s3 (${s3RequiredVariables.join(", ")} must all be set)`,
          });
      }
    }
    if (env.NODE_ENV === "production" && !env.ALLOW_TEST_PAYMENTS && testModeMethods(env).length > 0) {
      ctx.addIssue({
        code: "custom",
        path: ["ALLOW_TEST_PAYMENTS"],
        message: `must be true to run in production with payments in test mode (no money is taken for: ${testModeMethods(env).join(", ")}); set STRIPE_SECRET_KEY with STRIPE_WEBHOOK_SECRET, PAYPAL_CLIENT_ID with PAYPAL_CLIENT_SECRET and PAYPAL_WEBHOOK_ID, and ${bankVariables.join(", ")}`,
      });
    }
  });

/** The checkout methods that have no provider keys (or no bank account) and so run in test mode. */
export function testModeMethods(env: {
  STRIPE_SECRET_KEY?: string;
  PAYPAL_CLIENT_ID?: string;
  BANK_IBAN?: string;
}): string[] {
  return [
    ...(env.STRIPE_SECRET_KEY ? [] : ["stripe", "apple-pay"]),
    ...(env.PAYPAL_CLIENT_ID ? [] : ["paypal"]),
    ...(env.BANK_IBAN ? [] : ["bank-transfer"]),
  ];
}

export type Env = z.infer<typeof envSchema>;

export class EnvError extends Error {
  readonly problems: string[];

  constructor(problems: string[]) {
    super(`Invalid environment:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "EnvError";
    this.problems = problems;
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

/** Printed on invoices outside production when OPERATOR_TRN is unset: plainly not a real number. */
export const DEMO_OPERATOR_TRN = "100000000000000 (demo)";

/** The operator's TRN for invoices. */
export function operatorTrn(env: Env): string {
  return env.OPERATOR_TRN ?? DEMO_OPERATOR_TRN;
}

export function publicUrl(env: Env): string {
  return env.PUBLIC_URL ?? `http://${env.HOST}:${env.PORT}`;
}
