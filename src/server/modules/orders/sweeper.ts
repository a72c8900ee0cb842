import { and, asc, eq, inArray, lt } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { Database } from "#server/db/client";
import { orders } from "#server/db/schema/orders";
import type { JobDefinition } from "#server/jobs/queue";
import { PaymentFailed, type Settlement, settleOrder } from "#server/modules/orders/settlement";

/** Orders claimed per sweep; the rest wait for the next one. */
const BATCH = 50;

/** The app's settlement: its database, payment provider, refund window and job queue. */
export function settlementOf(app: FastifyInstance): Settlement {
  return {
    db: app.database.db,
    payments: app.payments,
    refundWindowDays: app.env.REFUND_WINDOW_DAYS,
    jobs: app.jobs,
    log: app.log,
  };
}

/**
 * Claims up to BATCH pending orders untouched since `cutoff`, and moves their `updatedAt` to `now`. Rows
 * another instance is claiming are skipped, and a claimed row looks fresh to every other sweep until
 * the threshold passes again, so two instances never work on the same order at the same time.
 */
async function claimStalePending(db: Database, cutoff: Date, now: Date): Promise<string[]> {
  const due = db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.paymentStatus, "pending"), lt(orders.updatedAt, cutoff)))
    .orderBy(asc(orders.updatedAt))
    .limit(BATCH)
    .for("update", { skipLocked: true });
  const rows = await db
    .update(orders)
    .set({ updatedAt: now })
    .where(inArray(orders.id, due))
    .returning({ id: orders.id });
  return rows.map((row) => row.id);
}

export type SweepResult = { confirmed: number; failed: number; retried: number };

/**
 * One pass: every order left `pending` for longer than `pendingAfterMs` (its checkout crashed or was
 * abandoned between the insert and the payment) is charged again and delivered, or marked failed if the
 * provider refuses. A provider that cannot be reached leaves it pending for the next pass.
 */
export async function sweepOrders(s: Settlement, now: Date, pendingAfterMs: number): Promise<SweepResult> {
  const cutoff = new Date(now.getTime() - pendingAfterMs);
  const result: SweepResult = { confirmed: 0, failed: 0, retried: 0 };
  for (const orderId of await claimStalePending(s.db, cutoff, now)) {
    try {
      await settleOrder(s, orderId, "sweeper", { now });
      result.confirmed++;
    } catch (error) {
      if (error instanceof PaymentFailed) {
        result.failed++;
        s.log.info({ orderId }, "sweeper: payment of a stale pending order refused; order failed");
      } else {
        result.retried++;
        s.log.warn({ err: error, orderId }, "sweeper: could not settle a pending order; will retry");
      }
    }
  }
  if (result.confirmed + result.failed + result.retried > 0) s.log.info({ ...result }, "sweeper: pass done");
  return result;
}

/** The sweep as a job: when an instance starts, then once a minute, across all instances. */
export function sweepJob(app: FastifyInstance): JobDefinition {
  return {
    name: "orders-sweep",
    cron: "* * * * *",
    runAtStart: true,
    retryLimit: 0,
    retryDelaySeconds: 60,
    describe: () => "Settle orders left pending",
    async run() {
      await sweepOrders(settlementOf(app), new Date(), app.env.PENDING_ORDER_TIMEOUT_SECONDS * 1000);
    },
  };
}
