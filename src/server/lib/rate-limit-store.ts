import type { FastifyRateLimitStore } from "@fastify/rate-limit";
import { lt, sql } from "drizzle-orm";
import type { Database } from "#server/db/client";
import { rateLimits } from "#server/db/schema/platform";

type Result = { current: number; ttl: number };
type Callback = (error: Error | null, result?: Result) => void;
type RouteParams = { routeInfo?: { method?: string | string[]; url?: string } };

/**
 * @fastify/rate-limit counters in PostgreSQL, so limits hold across instances behind a load balancer
 * and across restarts. One upsert per counted request; the window restarts once it has passed.
 */
export function postgresRateLimitStore(db: Database) {
  let sinceCleanup = 0;
  return class PostgresRateLimitStore {
    private readonly prefix: string;

    constructor(_params?: unknown, prefix = "") {
      this.prefix = prefix;
    }

    incr(key: string, callback: Callback, timeWindow: number) {
      const now = new Date();
      const resetAt = new Date(now.getTime() + timeWindow);
      const expired = sql`${rateLimits.resetAt} <= ${now.toISOString()}`;
      db.insert(rateLimits)
        .values({ key: `${this.prefix}${key}`, count: 1, resetAt })
        .onConflictDoUpdate({
          target: rateLimits.key,
          set: {
            count: sql`case when ${expired} then 1 else ${rateLimits.count} + 1 end`,
            resetAt: sql`case when ${expired} then ${resetAt.toISOString()}::timestamptz else ${rateLimits.resetAt} end`,
          },
        })
        .returning({ count: rateLimits.count, resetAt: rateLimits.resetAt })
        .then(([row]) => {
          callback(null, {
            current: row?.count ?? 1,
            ttl: Math.max(0, (row?.resetAt ?? resetAt).getTime() - now.getTime()),
          });
          if (++sinceCleanup >= 500) {
            sinceCleanup = 0;
            void db
              .delete(rateLimits)
              .where(lt(rateLimits.resetAt, now))
              .catch(() => {});
          }
        }, callback);
    }

    /** Each route counts on its own, as the plugin's in-memory store does. */
    child(options: Parameters<FastifyRateLimitStore["child"]>[0]) {
      const { routeInfo } = options as unknown as RouteParams;
      const method = [routeInfo?.method ?? ""].flat().join(",");
      return new PostgresRateLimitStore(options, `${method} ${routeInfo?.url ?? ""}|`);
    }
  };
}
