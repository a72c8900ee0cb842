import { createHash, timingSafeEqual } from "node:crypto";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

/** Upper bounds (seconds) of the request latency buckets: cache hits are sub-millisecond, a slow page seconds. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Requests that matched no route share one label, so a scan of random URLs cannot grow the series without end. */
export const UNMATCHED_ROUTE = "(unmatched)";

export type PoolUse = { pool: string; total: number; idle: number; waiting: number };
export type QueueDepth = { queue: string; waiting: number; active: number };
export type JobOutcome = "completed" | "failed";
export type MailOutcome = "sent" | "failed";

/**
 * The app's Prometheus series, on a registry of its own (so several apps in one process, as in tests,
 * never share or collide). Counters are bumped where things happen; pool use and queue depth are read on
 * each scrape from the sources `collectFrom` is given.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly requests: Counter<"method" | "route" | "status">;
  private readonly latency: Histogram<"method" | "route" | "status">;
  private readonly jobs: Counter<"queue" | "outcome">;
  private readonly payments: Counter<"provider" | "outcome">;
  private readonly mails: Counter<"outcome">;
  private poolUse: () => PoolUse[] = () => [];
  private queueDepth: () => Promise<QueueDepth[]> = async () => [];

  constructor(options: { processMetrics: boolean }) {
    const registers = [this.registry];
    if (options.processMetrics) collectDefaultMetrics({ register: this.registry });
    this.requests = new Counter({
      name: "stackbay_http_requests_total",
      help: "HTTP requests answered, by method, route template and status code.",
      labelNames: ["method", "route", "status"],
      registers,
    });
    this.latency = new Histogram({
      name: "stackbay_http_request_duration_seconds",
      help: "Time to answer HTTP requests in seconds, by method, route template and status code.",
      labelNames: ["method", "route", "status"],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.jobs = new Counter({
      name: "stackbay_jobs_total",
      help: "Background job runs that ended, by queue and outcome (a failed run may be retried).",
      labelNames: ["queue", "outcome"],
      registers,
    });
    this.payments = new Counter({
      name: "stackbay_payments_total",
      help: "Payment attempts whose outcome was recorded, by provider and outcome (paid, failed, cancelled, expired).",
      labelNames: ["provider", "outcome"],
      registers,
    });
    this.mails = new Counter({
      name: "stackbay_mails_total",
      help: "E-mail delivery attempts, by outcome (sent, or failed and to be retried).",
      labelNames: ["outcome"],
      registers,
    });
    const metrics = this;
    new Gauge({
      name: "stackbay_db_pool_connections",
      help: "PostgreSQL pool clients by pool and state (total, idle, waiting for a client); none on PGlite.",
      labelNames: ["pool", "state"],
      registers,
      collect() {
        this.reset();
        for (const use of metrics.poolUse()) {
          this.set({ pool: use.pool, state: "total" }, use.total);
          this.set({ pool: use.pool, state: "idle" }, use.idle);
          this.set({ pool: use.pool, state: "waiting" }, use.waiting);
        }
      },
    });
    new Gauge({
      name: "stackbay_job_queue_depth",
      help: "Jobs per queue that wait (queued or deferred) or run now.",
      labelNames: ["queue", "state"],
      registers,
      async collect() {
        const depths = await metrics.queueDepth();
        this.reset();
        for (const depth of depths) {
          this.set({ queue: depth.queue, state: "waiting" }, depth.waiting);
          this.set({ queue: depth.queue, state: "active" }, depth.active);
        }
      },
    });
  }

  /** Where scrapes read pool use and queue depth; the app sets them once its database and queue exist. */
  collectFrom(sources: { poolUse(): PoolUse[]; queueDepth(): Promise<QueueDepth[]> }) {
    this.poolUse = sources.poolUse;
    this.queueDepth = sources.queueDepth;
  }

  /** One answered request, by its route's template (never the raw URL, whose series would not end). */
  observeRequest(method: string, route: string, status: number, seconds: number) {
    const labels = { method, route, status };
    this.requests.inc(labels);
    this.latency.observe(labels, seconds);
  }

  jobEnded(queue: string, outcome: JobOutcome) {
    this.jobs.inc({ queue, outcome });
  }

  paymentRecorded(provider: string, outcome: string) {
    this.payments.inc({ provider, outcome });
  }

  mailDelivery(outcome: MailOutcome) {
    this.mails.inc({ outcome });
  }

  /** The exposition text for a scrape. */
  async scrape(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}

/**
 * Whether an Authorization header carries the metrics token. The scheme is case-insensitive (RFC 7235
 * section 2.1: "bearer x" is "Bearer x"), the token is not. Both sides are hashed first, so the
 * comparison takes the same time whatever the length or content of what was sent.
 */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const sent = header?.match(/^bearer +(.*)$/i)?.[1] ?? "";
  const digest = (text: string) => createHash("sha256").update(text).digest();
  return timingSafeEqual(digest(sent), digest(token)) && sent.length > 0;
}
