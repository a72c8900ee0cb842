import type { FastifyInstance } from "fastify";
import { awaitsPayment, type PaymentMethod, type PaymentStatus } from "#domain/checkout";
import { chargeCents } from "#domain/money";
import { sourcesOf } from "#domain/order-states";
import type { OrderPaymentAnswer, PaymentAttemptState, PaymentRedirect } from "#domain/payments";
import { absoluteUrl, paths } from "#domain/routes";
import type { UserRow } from "#server/auth/guards";
import type { Database, Transaction } from "#server/db/client";
import { publicUrl } from "#server/env";
import { AppError, Conflict, NotFound } from "#server/errors";
import type { JobDefinition } from "#server/jobs/queue";
import { recordAudit } from "#server/lib/audit";
import type { Mailer } from "#server/mail/mailer";
import { transfersOf } from "#server/modules/bank-transfers/repository";
import { expireBankTransfers, reopenBankTransfer } from "#server/modules/bank-transfers/service";
import { findMethodById, type MethodRow, markDeclined } from "#server/modules/payment-methods/repository";
import { applySetupState } from "#server/modules/payment-methods/service";
import {
  accountEmail,
  findOwnedOrder,
  findPaymentForEvent,
  insertEventOnce,
  insertPayment,
  latestPayment,
  lockOrder,
  lockPayment,
  type PaymentRow,
  pendingOrdersWithoutAttempt,
  setEventOrder,
  setProviderRef,
  stalePendingPayments,
  unsentSavedCharges,
  updatePayment,
} from "#server/modules/payments/repository";
import { applyAccountEvent } from "#server/modules/payout-accounts/service";
import { applyRefundEvent, type RefundPayoutDeps, refundPayoutDepsOf } from "#server/modules/refunds/payouts";
import { setOrderPaymentStatus } from "#server/modules/settlement/repository";
import {
  assertTransition,
  deliverInTx,
  type Settlement,
  settlementOf,
} from "#server/modules/settlement/service";
import {
  type ChargeResult,
  InvalidWebhookSignature,
  type PaymentState,
  type SetupState,
} from "#server/payments/provider";
import type { PaymentProviders } from "#server/payments/registry";

/** What payments need from the app; `paymentDepsOf(app)` builds it. */
export type PaymentDeps = {
  db: Database;
  providers: PaymentProviders;
  settlement: Settlement;
  /** The site's public origin: the provider sends the buyer back to it. */
  origin: string;
  /** PAYMENT_EXPIRY_MINUTES. */
  expiryMinutes: number;
  /** Where refund events are applied (the refunds module's payouts). */
  payouts: RefundPayoutDeps;
  /** Bank-transfer instructions are e-mailed in the transaction that places the order. */
  mailer: Mailer;
};

export function paymentDepsOf(app: FastifyInstance): PaymentDeps {
  return {
    db: app.database.db,
    providers: app.payments,
    settlement: settlementOf(app),
    origin: publicUrl(app.env),
    expiryMinutes: app.env.PAYMENT_EXPIRY_MINUTES,
    payouts: refundPayoutDepsOf(app),
    mailer: app.mailer,
  };
}

/** How long a payment may stay pending before reconciliation asks its provider about it. */
export const RECONCILE_AFTER_MS = 5 * 60_000;
const RECONCILE_BATCH = 100;

export class WebhookRefused extends AppError {
  constructor() {
    super(400, "INVALID_SIGNATURE", "The webhook's signature did not verify.");
  }
}

/** The one currency every provider is asked to charge in (ISO 4217, as providers write it in lower case). */
const CHARGE_CURRENCY = "usd";

const paidStatuses = ["mock_confirmed", "partially_refunded", "refunded"];

/** A cancelled order is not paid again: its buyer places a new one. */
export class OrderCancelled extends Conflict {
  constructor() {
    super("This order was cancelled. Place a new order to buy these items.", "ORDER_CANCELLED");
  }
}

/**
 * Sends the buyer to pay the order: the attempt still open, or, after a failed one, a new attempt with
 * its own idempotency key (the order goes back to pending). Asking again for an open attempt opens no
 * second session: the provider answers the same one for the same key. An order that needs no payment
 * any more (confirmed, or being handled by an admin) sends the buyer to its return page.
 */
export async function startPayment(deps: PaymentDeps, orderId: string): Promise<PaymentRedirect> {
  const returnUrl = absoluteUrl(deps.origin, paths.checkoutComplete(orderId));
  const opened = await deps.db.transaction(async (tx) => {
    const order = await lockOrder(tx, orderId);
    if (!order) throw new NotFound("Order not found.", "ORDER_NOT_FOUND");
    if (order.cancelledAt) throw new OrderCancelled();
    if (order.paymentStatus !== "pending" && order.paymentStatus !== "failed") return null;
    // A bank transfer has no provider page: placing it again awaits the money anew on the return page.
    if (order.paymentMethod === "bank-transfer") {
      await reopenBankTransfer(deps, tx, order, deps.settlement.clock.now());
      return null;
    }
    const latest = await latestPayment(tx, orderId);
    if (order.paymentStatus === "pending" && latest?.state === "pending") return { order, payment: latest };
    if (order.paymentStatus === "failed") {
      assertTransition(order.paymentStatus, "pending", "buyer");
      await setOrderPaymentStatus(
        tx,
        orderId,
        { paymentStatus: "pending", isPaid: false },
        deps.settlement.clock.now(),
      );
    }
    const provider = deps.providers.forMethod(
      order.paymentMethod as Parameters<PaymentProviders["forMethod"]>[0],
    );
    const payment = await insertPayment(tx, {
      orderId,
      provider: provider.name,
      attempt: (latest?.attempt ?? 0) + 1,
      amountCents: chargeCents(order.totalAmount),
    });
    return { order, payment };
  });
  if (!opened) return { orderId, redirectUrl: returnUrl };
  const { order, payment } = opened;
  const provider = deps.providers.byName(payment.provider);
  if (!provider) throw new Error(`payment provider ${payment.provider} is not configured`);
  const started = await provider.start({
    orderId,
    idempotencyKey: `${orderId}:${payment.attempt}`,
    amountCents: payment.amountCents,
    description: `Stackbay order ${orderId.slice(0, 8).toUpperCase()}`,
    email: await accountEmail(deps.db, order.userId),
    returnUrl,
    cancelUrl: `${returnUrl}&cancelled=1`,
  });
  await setProviderRef(deps.db, payment.id, started.providerRef);
  return { orderId, redirectUrl: started.redirectUrl };
}

/**
 * Applies the provider's answer about one attempt, inside the caller's transaction; answers the outcome
 * this call recorded on the attempt (null when it changed nothing), which the caller counts once the
 * transaction has committed. Delivering the order queues its confirmation e-mail in the same
 * transaction. The one place a payment moves: the webhook, the return page and reconciliation all come here.
 *
 * - paid: the attempt is paid (even after a recorded failure: the money was taken) and the order is
 *   delivered if the state machine lets the provider confirm it, exactly once;
 * - failed, cancelled, expired: only an attempt still pending moves, so a late failure never undoes a
 *   payment; the order fails only if this is its newest attempt (an older attempt's failure says
 *   nothing about the one the buyer is paying now).
 */
export async function applyPaymentState(
  s: Settlement,
  tx: Transaction,
  paymentId: string,
  result: PaymentState,
  now: Date,
): Promise<PaymentAttemptState | null> {
  const { log } = s;
  const payment = await lockPayment(tx, paymentId);
  if (!payment || result.state === "pending") return null;
  if (result.state === "paid") {
    if (result.currency !== CHARGE_CURRENCY || result.amountCents !== payment.amountCents) {
      // Never deliver for another currency or amount; an admin looks at it (the attempt keeps the
      // reason). Answered normally, so the provider does not retry an event that cannot change.
      log.warn(
        {
          orderId: payment.orderId,
          attempt: payment.attempt,
          paid: result.amountCents,
          paidCurrency: result.currency,
          expected: payment.amountCents,
        },
        "payment: provider reports a paid amount or currency that differs from the order's; not delivered",
      );
      await updatePayment(tx, payment.id, {
        state: payment.state,
        reason: `paid ${result.amountCents} ${result.currency || "(no currency)"} minor units, expected ${payment.amountCents} ${CHARGE_CURRENCY}`,
        updatedAt: now,
      });
      return null;
    }
    const newlyPaid = payment.state !== "paid";
    if (newlyPaid) await updatePayment(tx, payment.id, { state: "paid", reason: null, updatedAt: now });
    await deliverInTx(s, tx, payment.orderId, "provider", now);
    return newlyPaid ? "paid" : null;
  }
  if (payment.state !== "pending") return null;
  const reason = result.state === "failed" ? result.reason : result.state;
  await updatePayment(tx, payment.id, { state: result.state, reason, updatedAt: now });
  const newest = await latestPayment(tx, payment.orderId);
  if (newest?.id === payment.id) {
    await setOrderPaymentStatus(
      tx,
      payment.orderId,
      { paymentStatus: "failed", isPaid: false },
      now,
      sourcesOf("failed", "provider"),
    );
  }
  return result.state;
}

/** Applies an answer in its own transaction, and counts the outcome it recorded once committed. */
async function applyInTransaction(deps: PaymentDeps, payment: PaymentRow, result: PaymentState, now: Date) {
  const recorded = await deps.db.transaction((tx) =>
    applyPaymentState(deps.settlement, tx, payment.id, result, now),
  );
  if (recorded) deps.settlement.metrics.paymentRecorded(payment.provider, recorded);
}

export type WebhookOutcome = "applied" | "duplicate" | "unknown" | "stored";

/**
 * A provider's webhook: verified over the raw body, stored once, and applied in the same transaction
 * as its event row, so a crash in between leaves neither and the provider's retry starts afresh. A
 * bad signature is refused before anything is written.
 */
export async function receiveWebhook(
  deps: PaymentDeps,
  providerName: string,
  rawBody: Buffer,
  headers: Record<string, string | string[] | undefined>,
  now = deps.settlement.clock.now(),
): Promise<WebhookOutcome> {
  const provider = deps.providers.byName(providerName);
  if (!provider) throw new NotFound("No such payment provider.", "PROVIDER_NOT_FOUND");
  let event: Awaited<ReturnType<typeof provider.parseWebhook>>;
  try {
    event = await provider.parseWebhook(rawBody, headers);
  } catch (error) {
    if (error instanceof InvalidWebhookSignature) throw new WebhookRefused();
    throw error;
  }
  const s = deps.settlement;
  // A setup's details are the provider's to tell: asked before the transaction, applied in it.
  const setup: SetupState | null =
    event.kind === "setup" ? await provider.completeSetup(event.providerRef, {}) : null;
  const outcome = await deps.db.transaction(async (tx) => {
    const stored = await insertEventOnce(tx, {
      provider: provider.name,
      eventId: event.eventId,
      kind: event.kind,
      receivedAt: now,
    });
    if (!stored) return { outcome: "duplicate" as const };
    if (event.kind === "refund") {
      const orderId = await applyRefundEvent(deps.payouts, tx, provider.name, event, now);
      if (!orderId) return { outcome: "unknown" as const };
      await setEventOrder(tx, provider.name, event.eventId, orderId);
      return { outcome: "applied" as const };
    }
    if (event.kind === "setup" && setup) {
      const applied = await applySetupState(tx, provider.name, event.providerRef, setup, now);
      return { outcome: applied ? ("applied" as const) : ("unknown" as const) };
    }
    if (event.kind === "account") {
      const applied = await applyAccountEvent(tx, event);
      return { outcome: applied === "stale" ? ("stored" as const) : applied };
    }
    if (event.kind !== "payment") return { outcome: "stored" as const };
    const payment = await findPaymentForEvent(tx, provider.name, event.providerRef, event.orderId);
    if (!payment) return { outcome: "unknown" as const };
    await setEventOrder(tx, provider.name, event.eventId, payment.orderId);
    const recorded = await applyPaymentState(s, tx, payment.id, event.result, now);
    return { outcome: "applied" as const, recorded };
  });
  if ("recorded" in outcome && outcome.recorded) s.metrics.paymentRecorded(provider.name, outcome.recorded);
  if (outcome.outcome === "unknown") {
    // The provider stops retrying on 200; the reference alone (no buyer data) is enough to look it up.
    s.log.warn({ provider: provider.name, eventId: event.eventId }, "payment event for no payment we know");
  }
  return outcome.outcome;
}

async function answerFor(deps: PaymentDeps, orderId: string): Promise<OrderPaymentAnswer> {
  const order = await findOwnedOrder(deps.db, orderId, null);
  if (!order) throw new NotFound("Order not found.", "ORDER_NOT_FOUND");
  const payment = await latestPayment(deps.db, orderId);
  return {
    orderId,
    paymentStatus: order.paymentStatus,
    method: order.paymentMethod as PaymentMethod,
    payment: payment
      ? {
          attempt: payment.attempt,
          provider: payment.provider as NonNullable<OrderPaymentAnswer["payment"]>["provider"],
          state: payment.state as PaymentAttemptState,
          reason: payment.reason,
        }
      : null,
  };
}

/** The order's latest attempt, for its owner only; someone else's order is as absent as none. */
export async function orderPayment(
  deps: PaymentDeps,
  orderId: string,
  ownerId: string,
): Promise<OrderPaymentAnswer> {
  if (!(await findOwnedOrder(deps.db, orderId, ownerId)))
    throw new NotFound("Order not found.", "ORDER_NOT_FOUND");
  return answerFor(deps, orderId);
}

/**
 * The buyer is back on the return page: asks the provider to complete the latest attempt (PayPal
 * captures here) and applies its answer exactly as a webhook would.
 */
export async function completePayment(
  deps: PaymentDeps,
  orderId: string,
  ownerId: string,
  query: Record<string, string>,
  now = deps.settlement.clock.now(),
): Promise<OrderPaymentAnswer> {
  const order = await findOwnedOrder(deps.db, orderId, ownerId);
  if (!order) throw new NotFound("Order not found.", "ORDER_NOT_FOUND");
  const payment = await latestPayment(deps.db, orderId);
  const provider = payment ? deps.providers.byName(payment.provider) : null;
  // A cancelled order is not completed: PayPal would capture the buyer's money for it here.
  if (payment?.providerRef && provider && !paidStatuses.includes(order.paymentStatus) && !order.cancelledAt) {
    await applyInTransaction(deps, payment, await provider.complete(payment.providerRef, query), now);
  }
  return answerFor(deps, orderId);
}

/** Payments the owner may try again: a new attempt for a failed order, the open one for a pending one. */
export async function retryPayment(
  deps: PaymentDeps,
  orderId: string,
  ownerId: string,
): Promise<PaymentRedirect> {
  const order = await findOwnedOrder(deps.db, orderId, ownerId);
  if (!order) throw new NotFound("Order not found.", "ORDER_NOT_FOUND");
  return startPayment(deps, orderId);
}

/**
 * The buyer cancels an order that awaits payment (pending, or a bank transfer awaiting its money), as
 * the expiry would: its open attempt is recorded cancelled through `applyPaymentState` and the order
 * fails, stamped cancelled, audited, in one transaction. Placing an order reserves nothing else (no
 * stock, no code: see `expireOrdersWithoutAttempt`), so that releases all it held, and a failed order
 * no longer blocks account deletion. Cancelling again answers the same; an order past awaiting payment
 * (paid, failed, with an admin) is refused. Money a provider reports after all follows the rule for a
 * late payment after an expiry: the order is confirmed and delivered, since the money was taken; the
 * return page no longer completes (captures) a cancelled order's payment.
 */
export async function cancelOrder(
  deps: PaymentDeps,
  buyer: Pick<UserRow, "id" | "email">,
  orderId: string,
  now = deps.settlement.clock.now(),
): Promise<void> {
  const recorded = await deps.db.transaction(async (tx) => {
    // The attempt first, then the order: the order the webhook's path takes its locks in.
    const open = await latestPayment(tx, orderId);
    if (open) await lockPayment(tx, open.id);
    const order = await lockOrder(tx, orderId);
    // Someone else's order is as absent as one that does not exist.
    if (order?.userId !== buyer.id) throw new NotFound("Order not found.", "ORDER_NOT_FOUND");
    if (order.cancelledAt) return null;
    const from = order.paymentStatus as PaymentStatus;
    if (!awaitsPayment({ paymentStatus: from, paymentMethod: order.paymentMethod })) {
      throw new Conflict("Only an order that is awaiting payment can be cancelled.", "ORDER_NOT_CANCELLABLE");
    }
    // Money already received for a bank transfer is an admin's to settle, with the buyer.
    if (order.paymentMethod === "bank-transfer" && (await transfersOf(tx, orderId)).length > 0) {
      throw new Conflict(
        "Part of this order's bank transfer has already arrived, so it cannot be cancelled here. Contact us to settle it.",
        "ORDER_NOT_CANCELLABLE",
      );
    }
    assertTransition(from, "failed", "buyer");
    const latest = await latestPayment(tx, orderId);
    const outcome =
      latest?.state === "pending"
        ? await applyPaymentState(deps.settlement, tx, latest.id, { state: "cancelled" }, now)
        : null;
    await setOrderPaymentStatus(
      tx,
      orderId,
      { paymentStatus: "failed", isPaid: false, cancelledAt: now },
      now,
    );
    await recordAudit(tx, buyer, {
      action: "update",
      entityType: "order",
      entityId: orderId,
      entityLabel: orderId.slice(0, 8),
      before: { paymentStatus: from, cancelled: false },
      after: { paymentStatus: "failed", cancelled: true },
    });
    return outcome && latest ? { provider: latest.provider, outcome } : null;
  });
  if (recorded) deps.settlement.metrics.paymentRecorded(recorded.provider, recorded.outcome);
}

/** What an off-session charge came to: `skipped` when the order no longer needed it. */
export type SavedCharge =
  | { state: "paid" | "pending" | "skipped" }
  | { state: "declined"; hard: boolean; reason: string };

/**
 * Opens an off-session attempt to charge a saved method for an order, in the caller's transaction: the
 * order must still await its payment (pending, or failed by an earlier attempt: the buyer's standing
 * instruction tries again as they would). An attempt of the same method still waiting for its call (a
 * crash came before it) is answered again, so the call is made with its key; an open payment page of
 * the buyer's is left to the buyer. Answers null when nothing is to be charged.
 */
export async function openSavedAttempt(
  tx: Transaction,
  orderId: string,
  method: MethodRow,
  now: Date,
): Promise<PaymentRow | null> {
  if (!method.provider || method.declinedAt || method.removedAt) return null;
  const latest = await latestPayment(tx, orderId);
  if (latest) await lockPayment(tx, latest.id);
  const order = await lockOrder(tx, orderId);
  if (!order || order.cancelledAt) return null;
  if (order.paymentStatus !== "pending" && order.paymentStatus !== "failed") return null;
  if (latest?.state === "pending")
    return latest.savedMethodId === method.id && !latest.providerRef ? latest : null;
  if (order.paymentStatus === "failed") {
    assertTransition(order.paymentStatus, "pending", "buyer");
    await setOrderPaymentStatus(tx, orderId, { paymentStatus: "pending", isPaid: false }, now);
  }
  return insertPayment(tx, {
    orderId,
    provider: method.provider,
    attempt: (latest?.attempt ?? 0) + 1,
    amountCents: chargeCents(order.totalAmount),
    savedMethodId: method.id,
    createdAt: now,
    updatedAt: now,
  });
}

/**
 * Charges an opened off-session attempt at its provider, with `<order>:<attempt>` as the idempotency key
 * (the renewal's claim, or the change, names the order), and applies the answer as a webhook would, in
 * one transaction: paid delivers the order; a decline fails the attempt, and a hard one also marks the
 * method declined, so it is not charged again until the buyer saves it again. A provider that cannot be
 * reached leaves the attempt pending without a reference: the next pass asks again with the same key.
 */
export async function chargeSavedAttempt(
  deps: PaymentDeps,
  payment: PaymentRow,
  method: MethodRow,
): Promise<SavedCharge> {
  const provider = deps.providers.byName(payment.provider);
  if (!provider || !method.customerRef || !method.methodRef)
    throw new Error(`saved method ${method.id} cannot be charged at ${payment.provider}`);
  const answer: ChargeResult = await provider.chargeSaved({
    orderId: payment.orderId,
    idempotencyKey: `${payment.orderId}:${payment.attempt}`,
    amountCents: payment.amountCents,
    description: `Stackbay order ${payment.orderId.slice(0, 8).toUpperCase()}`,
    customerRef: method.customerRef,
    methodRef: method.methodRef,
  });
  const now = deps.settlement.clock.now();
  const result: PaymentState =
    answer.state === "paid"
      ? { state: "paid", amountCents: answer.amountCents, currency: answer.currency }
      : answer.state === "declined"
        ? { state: "failed", reason: answer.reason }
        : { state: "pending" };
  const recorded = await deps.db.transaction(async (tx) => {
    if (answer.providerRef) await setProviderRef(tx, payment.id, answer.providerRef);
    if (answer.state === "declined" && answer.hard) await markDeclined(tx, method.id, answer.reason, now);
    return applyPaymentState(deps.settlement, tx, payment.id, result, now);
  });
  if (recorded) deps.settlement.metrics.paymentRecorded(payment.provider, recorded);
  if (answer.state === "declined") return { state: "declined", hard: answer.hard, reason: answer.reason };
  return { state: answer.state };
}

/** Charges an order now on a saved method (an upgrade, a resumed subscription): open, then charge. */
export async function chargeOrderWithSavedMethod(
  deps: PaymentDeps,
  orderId: string,
  method: MethodRow,
): Promise<SavedCharge> {
  const now = deps.settlement.clock.now();
  const payment = await deps.db.transaction((tx) => openSavedAttempt(tx, orderId, method, now));
  if (!payment) return { state: "skipped" };
  return chargeSavedAttempt(deps, payment, method);
}

/**
 * Off-session attempts opened but never sent (a crash, or the provider unreachable, between the two):
 * sent again with the same idempotency key, so a charge the provider did make is answered, not repeated.
 */
export async function resumeSavedCharges(deps: PaymentDeps, now: Date): Promise<number> {
  let resumed = 0;
  for (const payment of await unsentSavedCharges(
    deps.db,
    new Date(now.getTime() - 60_000),
    RECONCILE_BATCH,
  )) {
    const method = payment.savedMethodId ? await findMethodById(deps.db, payment.savedMethodId) : undefined;
    if (!method) continue;
    try {
      await chargeSavedAttempt(deps, payment, method);
      resumed++;
    } catch (error) {
      deps.settlement.log.warn(
        { err: error, orderId: payment.orderId },
        "saved charge: provider unreachable",
      );
    }
  }
  return resumed;
}

export type ReconcileResult = {
  checked: number;
  applied: number;
  expired: number;
  errors: number;
  /** Bank-transfer orders whose due date passed unpaid. */
  transfersExpired: number;
  /** Orders left pending without any payment attempt (a crash between the two), failed as expired. */
  ordersExpired: number;
  /** Off-session charges opened but never sent to their provider, sent again with their key. */
  resumed: number;
};

/**
 * Asks the provider about every payment pending for more than five minutes (its webhook may have been
 * lost) and applies the answer like a webhook; a payment older than PAYMENT_EXPIRY_MINUTES that is
 * still pending expires, and its order fails with the reason "expired". A provider that cannot be
 * reached is asked again on the next run, but does not keep a payment from expiring. Orders with no
 * attempt at all and bank-transfer orders past their due date expire in the same pass. First, off-session
 * charges on saved methods that were opened but never sent (`resumeSavedCharges`) are sent again.
 */
export async function reconcilePayments(deps: PaymentDeps, now: Date): Promise<ReconcileResult> {
  const result: ReconcileResult = {
    checked: 0,
    applied: 0,
    expired: 0,
    errors: 0,
    transfersExpired: 0,
    ordersExpired: 0,
    resumed: await resumeSavedCharges(deps, now),
  };
  const expiresBefore = now.getTime() - deps.expiryMinutes * 60_000;
  const stale = await stalePendingPayments(
    deps.db,
    new Date(now.getTime() - RECONCILE_AFTER_MS),
    RECONCILE_BATCH,
  );
  for (const payment of stale) {
    result.checked++;
    let answer: PaymentState = { state: "pending" };
    const provider = deps.providers.byName(payment.provider);
    if (payment.providerRef && provider) {
      try {
        answer = await provider.lookup(payment.providerRef);
      } catch (error) {
        result.errors++;
        deps.settlement.log.warn(
          { err: error, orderId: payment.orderId },
          "reconcile: provider lookup failed",
        );
      }
    }
    if (answer.state !== "pending") {
      await applyInTransaction(deps, payment, answer, now);
      result.applied++;
    } else if (payment.createdAt.getTime() < expiresBefore) {
      await applyInTransaction(deps, payment, { state: "expired" }, now);
      result.expired++;
    }
  }
  result.ordersExpired = await expireOrdersWithoutAttempt(deps, new Date(expiresBefore), now);
  result.transfersExpired = await expireBankTransfers(deps, now);
  if (result.checked > 0 || result.transfersExpired > 0 || result.ordersExpired > 0 || result.resumed > 0)
    deps.settlement.log.info({ ...result }, "reconcile: pass done");
  return result;
}

/**
 * An order committed just before a crash has no attempt for the pass above to ask about, so it stayed
 * pending for good (and blocked its buyer's account deletion). Placed before `before` (the
 * PAYMENT_EXPIRY_MINUTES grace) it fails as an expired attempt would: the buyer may still pay it by
 * trying again. Placing an order reserves nothing else (no stock, no code), so failing it releases all
 * it held. Checked again under the order's lock, which `startPayment` takes to open an attempt.
 */
async function expireOrdersWithoutAttempt(deps: PaymentDeps, before: Date, now: Date): Promise<number> {
  let expired = 0;
  for (const { id } of await pendingOrdersWithoutAttempt(deps.db, before, RECONCILE_BATCH)) {
    const moved = await deps.db.transaction(async (tx) => {
      const order = await lockOrder(tx, id);
      if (order?.paymentStatus !== "pending" || (await latestPayment(tx, id))) return false;
      assertTransition(order.paymentStatus, "failed", "provider");
      await setOrderPaymentStatus(tx, id, { paymentStatus: "failed", isPaid: false }, now);
      return true;
    });
    if (moved) expired++;
  }
  return expired;
}

/** Reconciliation as a job: when an instance starts, then every minute, across all instances. */
export function reconcileJob(app: FastifyInstance): JobDefinition {
  return {
    name: "payments-reconcile",
    cron: "* * * * *",
    runAtStart: true,
    retryLimit: 0,
    retryDelaySeconds: 60,
    describe: () =>
      "Ask providers about payments still pending; expire unpaid ones and overdue bank transfers",
    async run() {
      await reconcilePayments(paymentDepsOf(app), app.clock.now());
    },
  };
}
