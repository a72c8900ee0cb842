import { and, asc, inArray, isNotNull, lt } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { Database } from "#server/db/client";
import { orders } from "#server/db/schema/orders";
import { sendOrderConfirmation } from "#server/modules/orders/confirmation-mail";
import { type Settlement, sendConfirmation } from "#server/modules/orders/settlement";

/** Orders claimed per sweep; the rest wait for the next one. */
const BATCH = 50;

/** The app's settlement: its database, refund window and mailer. */
export function settlementOf(app: FastifyInstance): Settlement {
  return {
    db: app.database.db,
    refundWindowDays: app.env.REFUND_WINDOW_DAYS,
    mail: (orderId) => sendOrderConfirmation(app, orderId),
    log: app.log,
  };
}

/**
 * Claims up to BATCH orders matching `where` whose `updatedAt`/`confirmationDueAt` (the `stamp`) is
 * older than `cutoff`, and moves the stamp to `now`. Rows another instance is claiming are skipped, and
 * a claimed row looks fresh to every other sweeper until the threshold passes again, so two instances
 * never work on the same order at the same time.
 */
async function claim(
  db: Database,
  stamp: typeof orders.updatedAt | typeof orders.confirmationDueAt,
  where: ReturnType<typeof and>,
  cutoff: Date,
  now: Date,
): Promise<string[]> {
  const due = db
    .select({ id: orders.id })
    .from(orders)
    .where(and(where, lt(stamp, cutoff)))
    .orderBy(asc(stamp))
    .limit(BATCH)
    .for("update", { skipLocked: true });
  const field = stamp === orders.updatedAt ? "updatedAt" : "confirmationDueAt";
  const rows = await db
    .update(orders)
    .set({ [field]: now })
    .where(inArray(orders.id, due))
    .returning({ id: orders.id });
  return rows.map((row) => row.id);
}

export type SweepResult = { mailed: number };

/**
 * One pass: delivered orders whose confirmation e-mail has been owed for longer than `pendingAfterMs`
 * (its send failed, or the process died before it) are e-mailed again. Orders still waiting for their
 * payment are not the sweeper's: only the provider's answer moves them (`reconcilePayments` asks it).
 */
export async function sweepOrders(s: Settlement, now: Date, pendingAfterMs: number): Promise<SweepResult> {
  const cutoff = new Date(now.getTime() - pendingAfterMs);
  const result: SweepResult = { mailed: 0 };
  const unmailed = await claim(
    s.db,
    orders.confirmationDueAt,
    isNotNull(orders.confirmationDueAt),
    cutoff,
    now,
  );
  for (const orderId of unmailed) {
    await sendConfirmation(s, orderId);
    result.mailed++;
  }
  if (unmailed.length > 0) s.log.info({ ...result }, "sweeper: pass done");
  return result;
}

export type SweeperOptions = { intervalMs: number; pendingAfterMs: number };

/**
 * Runs `sweepOrders` when the app is ready and then every `intervalMs`, one pass at a time, and stops
 * when the app closes. Call before the app is ready (before `listen`).
 */
export function startSweeper(app: FastifyInstance, options: SweeperOptions): void {
  const settlement = settlementOf(app);
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | null = null;
  const pass = () => {
    if (running) return;
    running = sweepOrders(settlement, new Date(), options.pendingAfterMs)
      .catch((error: unknown) => app.log.error({ err: error }, "sweeper: pass failed"))
      .finally(() => {
        running = null;
      });
  };
  app.addHook("onReady", async () => {
    pass();
    timer = setInterval(pass, options.intervalMs);
    timer.unref();
  });
  // Before the database closes (an onClose hook of app.ts), let a pass in progress finish.
  app.addHook("preClose", async () => {
    clearInterval(timer);
    await running;
  });
}
