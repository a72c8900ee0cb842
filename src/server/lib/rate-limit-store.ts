import type { FastifyRateLimitStore } from "@fastify/rate-limit";
import { lt, sql } from "drizzle-orm";
import { type Database, rowsOf } from "#server/db/client";
import { rateLimits } from "#server/db/schema/platform";

type Result = { current: number; ttl: number };
type Callback = (error: Error | null, result?: Result) => void;
type RouteParams = { routeInfo?: { method?: string | string[]; url?: string } };
type Pending = { key: string; timeWindow: number; callback: Callback };

/** Expired counters are deleted after this many counted requests. */
const CLEANUP_EVERY = 500;

/**
 * @fastify/rate-limit counters in PostgreSQL, so limits hold across instances behind a load balancer
 * and across restarts. Every counted request is counted in the database before it is answered; the
 * window restarts once it has passed. The requests counted while a statement runs wait and go together in
 * the next one (one upsert of many keys, in key order so two instances never deadlock), so a busy
 * instance makes one round trip per batch rather than one per request, and each request still learns its
 * exact place in its window: the n requests of one key in a batch add n and take the last n counts.
 */
export function postgresRateLimitStore(db: Database) {
  let sinceCleanup = 0;
  let queue: Pending[] = [];
  let flushing = false;

  async function flush(batch: Pending[]) {
    const now = new Date();
    const byKey = new Map<string, { n: number; resetAt: Date; waiting: Pending[] }>();
    for (const pending of batch) {
      const entry = byKey.get(pending.key);
      if (entry) {
        entry.n++;
        entry.waiting.push(pending);
      } else {
        const resetAt = new Date(now.getTime() + pending.timeWindow);
        byKey.set(pending.key, { n: 1, resetAt, waiting: [pending] });
      }
    }
    const keys = [...byKey.keys()].sort();
    const at = now.toISOString();
    let counted: Map<string, { count: number; reset_at: Date | string }>;
    try {
      const rows = await rowsOf<{ key: string; count: number; reset_at: Date | string }>(
        db,
        sql`insert into ${rateLimits} (key, count, reset_at)
          select v.key, v.n, v.reset_at
          from unnest(${sql.param(keys)}::text[], ${sql.param(keys.map((k) => byKey.get(k)?.n ?? 1))}::int[],
            ${sql.param(keys.map((k) => byKey.get(k)?.resetAt.toISOString()))}::timestamptz[])
            as v(key, n, reset_at)
          order by v.key
          on conflict (key) do update set
            count = case when ${rateLimits}.reset_at <= ${at}::timestamptz then excluded.count
              else ${rateLimits}.count + excluded.count end,
            reset_at = case when ${rateLimits}.reset_at <= ${at}::timestamptz then excluded.reset_at
              else ${rateLimits}.reset_at end
          returning key, count, reset_at`,
      );
      counted = new Map(rows.map((row) => [row.key, row]));
    } catch (error) {
      for (const pending of batch) pending.callback(error as Error);
      return;
    }
    for (const [key, { n, resetAt, waiting }] of byKey) {
      const row = counted.get(key);
      const last = row?.count ?? n;
      const ttl = Math.max(0, new Date(row?.reset_at ?? resetAt).getTime() - now.getTime());
      waiting.forEach((pending, i) => {
        pending.callback(null, { current: last - n + 1 + i, ttl });
      });
    }
    sinceCleanup += batch.length;
    if (sinceCleanup >= CLEANUP_EVERY) {
      sinceCleanup = 0;
      void db
        .delete(rateLimits)
        .where(lt(rateLimits.resetAt, now))
        .catch(() => {});
    }
  }

  async function drain() {
    flushing = true;
    try {
      while (queue.length > 0) {
        const batch = queue;
        queue = [];
        await flush(batch);
      }
    } finally {
      flushing = false;
    }
  }

  return class PostgresRateLimitStore {
    private readonly prefix: string;

    constructor(_params?: unknown, prefix = "") {
      this.prefix = prefix;
    }

    incr(key: string, callback: Callback, timeWindow: number) {
      queue.push({ key: `${this.prefix}${key}`, timeWindow, callback });
      if (!flushing) void drain();
    }

    /** Each route counts on its own, as the plugin's in-memory store does. */
    child(options: Parameters<FastifyRateLimitStore["child"]>[0]) {
      const { routeInfo } = options as unknown as RouteParams;
      const method = [routeInfo?.method ?? ""].flat().join(",");
      return new PostgresRateLimitStore(options, `${method} ${routeInfo?.url ?? ""}|`);
    }
  };
}
