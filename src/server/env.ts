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
    /** Seconds an order may stay pending (a checkout interrupted before payment) before the sweeper settles it. */
    PENDING_ORDER_TIMEOUT_SECONDS: z.coerce.number().int().min(0).max(86_400).default(300),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === "production" && !env.AUTH_SECRET) {
      ctx.addIssue({
        code: "custom",
        path: ["AUTH_SECRET"],
        message: "is required when NODE_ENV=production",
      });
    }
  });

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
