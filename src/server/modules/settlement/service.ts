import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import type { PaymentStatus } from "#domain/checkout";
import { isPaidStatus, type OrderActor, sourcesOf, transitionRefusal } from "#domain/order-states";
import type { UserRow } from "#server/auth/guards";
import type { Database, Transaction } from "#server/db/client";
import { Conflict, NotFound } from "#server/errors";
import type { JobQueue } from "#server/jobs/queue";
import { recordAudit } from "#server/lib/audit";
import type { Clock } from "#server/lib/clock";
import type { Metrics } from "#server/lib/metrics";
import { MAIL_QUEUE, type MailJob } from "#server/mail/mailer";
import { bookSale } from "#server/modules/ledger/bookings";
import { issueLicenses } from "#server/modules/licenses/service";
import { notifySellersOfSale } from "#server/modules/notifications/service";
import { commissionEarnedAt, type Referral, recordCommissions } from "#server/modules/referrals/service";
import { orderPaidEvents, subscriptionsStartedEvents } from "#server/modules/seller-webhooks/events";
import {
  confirmOrderIfIn,
  lockOrderStatus,
  type StoredReferral,
  setOrderPaymentStatus,
} from "#server/modules/settlement/repository";
import { renewalPaid, startSubscriptions } from "#server/modules/subscriptions/service";

/** What settling an order needs; built once from the app by `settlementOf` below. */
export type Settlement = {
  db: Database;
  /** The refund window, which is also how long a new commission waits before it is approved. */
  refundWindowDays: number;
  /** Where the confirmation e-mail is queued, in the delivery's transaction. */
  jobs: JobQueue;
  log: FastifyBaseLogger;
  /** Counts payment outcomes as they are recorded. */
  metrics: Metrics;
  /**
   * The money clock (`app.clock`): a delivery's refund window starts by it, as the releases that end
   * the window run by it, so a test server whose clock was moved forward starts a new sale's window then.
   */
  clock: Clock;
};

export class InvalidOrderTransition extends Conflict {
  constructor(reason: string) {
    super(reason, "INVALID_ORDER_TRANSITION");
  }
}

/** Queues the confirmation e-mail of an order in its delivery's transaction; it is rendered when sent. */
export async function queueOrderConfirmation(
  jobs: JobQueue,
  tx: Transaction,
  orderId: string,
): Promise<void> {
  const job: MailJob = { kind: "order-confirmation", orderId };
  await jobs.send(MAIL_QUEUE, job, { tx });
}

/** Refuses, with the machine's reason, a move `actor` may not make. */
export function assertTransition(from: string, to: PaymentStatus, actor: OrderActor): void {
  const refusal = transitionRefusal(from as PaymentStatus, to, actor);
  if (refusal) throw new InvalidOrderTransition(refusal);
}

/** The whole Referral goes in, so fields added to it later reach `recordCommissions` unchanged. */
export function storeReferral(referral: Referral | null): StoredReferral | null {
  return referral ? { ...referral, clickedAt: referral.clickedAt.toISOString() } : null;
}

export function loadReferral(stored: StoredReferral | null): Referral | null {
  return stored ? ({ ...stored, clickedAt: new Date(stored.clickedAt) } as Referral) : null;
}

/**
 * The one delivery of a paid order: confirms it only if it is still in a status `actor` may confirm
 * from, and in the same transaction issues its license keys, records its commissions, books the sale
 * in the ledger, starts or extends subscriptions and queues its confirmation e-mail. The conditional update is the guard: of any number of concurrent or repeated
 * calls, exactly one finds the order unconfirmed and delivers; the others answer false.
 */
export async function deliverInTx(
  s: Pick<Settlement, "refundWindowDays" | "jobs">,
  tx: Transaction,
  orderId: string,
  actor: OrderActor,
  now: Date,
): Promise<boolean> {
  const row = await confirmOrderIfIn(tx, orderId, sourcesOf("mock_confirmed", actor), now);
  if (!row) return false;
  // A renewal extends its subscription and the licences it already has; any other order issues its
  // licences and starts the subscriptions it sells (decision 0027).
  const renewal = await renewalPaid(tx, orderId, now);
  const referral = loadReferral(row.referral);
  if (!renewal) {
    await issueLicenses(tx, orderId, now);
    await startSubscriptions(tx, orderId, row.userId, now);
    await subscriptionsStartedEvents(tx, orderId, now);
    await recordCommissions(tx, orderId, row.userId, referral, now, s.refundWindowDays);
  } else {
    // A renewal earns the reseller's commission when the order that started the subscription did,
    // judged by the click's attribution at that first sale; one that began with a free trial (whose order
    // charged nothing, so earned nothing) by the attribution when the trial started.
    const earnedAt = (await commissionEarnedAt(tx, renewal.originItemId)) ?? renewal.trialStartedAt;
    if (earnedAt)
      await recordCommissions(tx, orderId, row.userId, referral, now, s.refundWindowDays, {
        attributedAt: earnedAt,
      });
  }
  await bookSale(tx, orderId, now, s.refundWindowDays);
  await queueOrderConfirmation(s.jobs, tx, orderId);
  await notifySellersOfSale(s.jobs, tx, orderId, now);
  await orderPaidEvents(tx, orderId, now);
  return true;
}

/** Delivers in its own transaction; true if this call was the one that delivered. */
export async function deliver(
  s: Settlement,
  orderId: string,
  actor: OrderActor,
  now = s.clock.now(),
): Promise<boolean> {
  return s.db.transaction((tx) => deliverInTx(s, tx, orderId, actor, now));
}

/** The app's settlement: its database, refund window, job queue and log. */
export function settlementOf(app: FastifyInstance): Settlement {
  return {
    db: app.database.db,
    refundWindowDays: app.env.REFUND_WINDOW_DAYS,
    jobs: app.jobs,
    log: app.log,
    metrics: app.metrics,
    clock: app.clock,
  };
}

/**
 * An admin's status change, checked against the order state machine. Confirming goes through the same
 * delivery as a payment; any other allowed move sets the status, with the paid flag following it.
 */
export async function adminSetStatus(
  s: Settlement,
  admin: UserRow,
  orderId: string,
  to: PaymentStatus,
  now = s.clock.now(),
): Promise<void> {
  await s.db.transaction(async (tx) => {
    const before = await lockOrderStatus(tx, orderId);
    if (!before) throw new NotFound("Order not found.", "ORDER_NOT_FOUND");
    assertTransition(before.paymentStatus, to, "admin");
    if (before.paymentStatus === to) return;
    const after = { paymentStatus: to, isPaid: isPaidStatus(to) };
    if (to === "mock_confirmed") await deliverInTx(s, tx, orderId, "admin", now);
    else {
      await setOrderPaymentStatus(tx, orderId, after, now);
    }
    await recordAudit(tx, admin, {
      action: "update",
      entityType: "order",
      entityId: orderId,
      entityLabel: orderId.slice(0, 8),
      before,
      after,
    });
  });
}
