import { z } from "zod";
import { type CurrencyCode, currencies } from "#domain/currency";

/** Rates are stored as numeric(18, 8), buffers as numeric(6, 4). */
export const RATE_DECIMALS = 8;
export const BUFFER_DECIMALS = 4;
export const MAX_RATE = 1_000_000;
export const MAX_BUFFER = 0.5;

/** Every supported currency but USD, whose rate is fixed at 1 since prices are stored in USD. */
export const fxCurrencyCodes = currencies.map((c) => c.code).filter((code) => code !== "USD") as Exclude<
  CurrencyCode,
  "USD"
>[];
export type FxCurrencyCode = (typeof fxCurrencyCodes)[number];

const hasAtMostDecimals = (value: number, places: number) => Number(value.toFixed(places)) === value;

export const fxCurrencyCode = z
  .string()
  .trim()
  .toUpperCase()
  .superRefine((code, ctx) => {
    if (code === "USD") {
      ctx.addIssue({
        code: "custom",
        message: "USD is the base currency: its rate is fixed at 1 and cannot be changed.",
      });
    } else if (!fxCurrencyCodes.includes(code as FxCurrencyCode)) {
      ctx.addIssue({
        code: "custom",
        message: `Unknown currency. Choose one of ${fxCurrencyCodes.join(", ")}.`,
      });
    }
  })
  .transform((code) => code as FxCurrencyCode);

export const fxRateParams = z.object({ code: fxCurrencyCode });

export const fxRateUpdateSchema = z.object({
  rateToUsd: z
    .number({ error: "Rate to USD must be a number" })
    .positive("Rate to USD must be greater than 0")
    .max(MAX_RATE, "Rate to USD must be at most 1,000,000")
    .refine((value) => hasAtMostDecimals(value, RATE_DECIMALS), {
      message: `Rate to USD can have at most ${RATE_DECIMALS} decimal places`,
    }),
  fxBuffer: z
    .number({ error: "Buffer must be a number" })
    .min(0, "Buffer must be between 0 and 0.5 (0–50 %)")
    .max(MAX_BUFFER, "Buffer must be between 0 and 0.5 (0–50 %)")
    .refine((value) => hasAtMostDecimals(value, BUFFER_DECIMALS), {
      message: `Buffer can have at most ${BUFFER_DECIMALS} decimal places`,
    }),
});
export type FxRateUpdate = z.infer<typeof fxRateUpdateSchema>;

export const adminFxRateSchema = z.object({
  currencyCode: z.string(),
  rateToUsd: z.number(),
  fxBuffer: z.number(),
  updatedAt: z.string(),
});
export type AdminFxRate = z.infer<typeof adminFxRateSchema>;

export const systemSchema = z.object({
  version: z.string(),
  uptimeSeconds: z.number(),
  nodeVersion: z.string(),
  database: z.object({
    kind: z.enum(["pglite", "postgres"]),
    healthy: z.boolean(),
    latencyMs: z.number().nullable(),
  }),
  mail: z.object({ transport: z.enum(["smtp", "outbox"]) }),
  storage: z.object({ driver: z.enum(["local", "s3"]) }),
  /** Null when the database cannot be reached. */
  counts: z
    .object({
      users: z.number(),
      products: z.number(),
      activeProducts: z.number(),
      orders: z.number(),
    })
    .nullable(),
  fxRates: z.array(adminFxRateSchema),
});
export type SystemInfo = z.infer<typeof systemSchema>;

/** "3 h 12 min", "2 d 4 h", "45 s": how long the server has run, to the two largest units. */
export function formatUptime(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  if (days > 0) return `${days} d ${hours} h`;
  if (hours > 0) return `${hours} h ${minutes} min`;
  if (minutes > 0) return `${minutes} min`;
  return `${seconds} s`;
}

/** One background job queue on the system screen: what waits, what runs, what gave up, and its last run. */
export const jobQueueSchema = z.object({
  name: z.string(),
  /** Cron expression (UTC) for scheduled work; null for work queued by events. */
  schedule: z.string().nullable(),
  waiting: z.number().int(),
  active: z.number().int(),
  deadLettered: z.number().int(),
  lastRun: z
    .object({
      startedAt: z.iso.datetime(),
      finishedAt: z.iso.datetime().nullable(),
      outcome: z.enum(["running", "completed", "failed"]),
      error: z.string().nullable(),
      runs: z.number().int(),
      failures: z.number().int(),
    })
    .nullable(),
});
export type JobQueueInfo = z.infer<typeof jobQueueSchema>;

/** A job that used up its retries, waiting for a person to retry it. */
export const deadLetterSchema = z.object({
  id: z.string(),
  queue: z.string(),
  about: z.string(),
  failedAt: z.iso.datetime(),
  attempts: z.number().int(),
});
export type DeadLetterInfo = z.infer<typeof deadLetterSchema>;

export const jobsSchema = z.object({
  queues: z.array(jobQueueSchema),
  deadLetters: z.array(deadLetterSchema),
});
export type JobsInfo = z.infer<typeof jobsSchema>;

/** Retry these dead-lettered jobs, or every one when `ids` is left out. */
export const retryJobsSchema = z.object({ ids: z.array(z.uuid()).min(1).max(100).optional() });
export type RetryJobs = z.infer<typeof retryJobsSchema>;
export const retriedJobsSchema = z.object({ retried: z.number().int() });

/** A queue's name for people: "payments-reconcile" reads "Payments reconcile". */
export function queueTitle(name: string): string {
  const words = name.replace(/-/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A queue's cron schedule for people: "Every minute", "Every 5 minutes", else the expression itself. */
export function scheduleText(cron: string | null): string {
  if (cron === null) return "Runs when work is queued";
  if (cron === "* * * * *") return "Every minute";
  const minutes = cron.match(/^\*\/(\d+) \* \* \* \*$/)?.[1];
  if (minutes) return `Every ${minutes} minutes`;
  return `Schedule ${cron} (UTC)`;
}
