import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import { chargeCents, lineTotal } from "#domain/money";
import { type AdminPayout, itemRefundCents, nextPayoutState, type PayoutState } from "#domain/refunds";
import { absoluteUrl, paths } from "#domain/routes";
import type { UserRow } from "#server/auth/guards";
import type { Database, Transaction } from "#server/db/client";
import { publicUrl } from "#server/env";
import { Conflict, NotFound } from "#server/errors";
import type { JobDefinition, JobQueue } from "#server/jobs/queue";
import { recordAudit } from "#server/lib/audit";
import type { Mailer } from "#server/mail/mailer";
import { refundSentMail } from "#server/mail/refund-mail";
import { bookRefundPaid } from "#server/modules/ledger/bookings";
import {
  countPayoutAttempt,
  findOrderForPayout,
  findOrderItem,
  findPaidPayment,
  findPaymentRef,
  findPayout,
  findPayoutMailFacts,
  insertPayout,
  lockPayout,
  lockPayoutByProviderRef,
  type PayoutRow,
  type RefundRow,
  refundedCents,
  toAdminPayout,
  updatePayout,
} from "#server/modules/refunds/repository";
import type { PaymentEvent, RefundState } from "#server/payments/provider";
import type { PaymentProviders } from "#server/payments/registry";

/** The queue that asks the provider to pay an approved refund back. */
export const REFUND_PAYOUT_JOB = "refund-payout";
export type RefundPayoutJob = { refundId: string };

export type RefundPayoutDeps = {
  db: Database;
  jobs: JobQueue;
  mailer: Mailer;
  providers: PaymentProviders;
  /** The site's public origin, for the link in the buyer's e-mail. */
  origin: string;
  log: FastifyBaseLogger;
};

export function refundPayoutDepsOf(app: FastifyInstance): RefundPayoutDeps {
  return {
    db: app.database.db,
    jobs: app.jobs,
    mailer: app.mailer,
    providers: app.payments,
    origin: publicUrl(app.env),
    log: app.log,
  };
}

/**
 * The key the provider knows a refund by: our refund id, with the round after an admin's retry. Job
 * retries of one round reuse it, so a refund the provider already made is answered, not made again;
 * a retry after a refusal (which took no money) needs a new one, as providers replay a refusal for a
 * key they have seen.
 */
export function providerRefundKey(refundId: string, round: number): string {
  return round === 1 ? refundId : `${refundId}-r${round}`;
}

function parseProviderRefundKey(key: string | null): { refundId: string; round: number } | null {
  const match = key?.match(
    /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:-r(\d{1,6}))?$/i,
  );
  if (!match?.[1]) return null;
  return { refundId: match[1].toLowerCase(), round: match[2] ? Number(match[2]) : 1 };
}

/**
 * In the approval's transaction: what the refund pays back and how. A provider payout is queued as a
 * job in the same transaction, so an approval that commits always gets its payout, even after a crash;
 * an order no provider took money for waits for the operator's transfer.
 */
export async function createPayout(
  jobs: JobQueue,
  tx: Transaction,
  refund: RefundRow,
  last: boolean,
  now: Date,
): Promise<PayoutRow> {
  const [order, item, payment] = await Promise.all([
    findOrderForPayout(tx, refund.orderId),
    findOrderItem(tx, refund.orderItemId),
    findPaidPayment(tx, refund.orderId),
  ]);
  if (!order || !item) throw new NotFound("Order not found.", "ORDER_NOT_FOUND");
  const amountCents = itemRefundCents({
    line: lineTotal(item.price, item.quantity),
    subtotal: order.subtotal,
    total: order.totalAmount,
    chargedCents: payment?.amountCents ?? chargeCents(order.totalAmount),
    refundedCents: await refundedCents(tx, refund.orderId, refund.id),
    last,
  });
  const base = { refundId: refund.id, orderId: refund.orderId, amountCents, createdAt: now, updatedAt: now };
  if (!payment) {
    return insertPayout(tx, { ...base, destination: "bank", state: "awaiting_transfer" });
  }
  const destination = order.paymentMethod === "paypal" ? "paypal" : "card";
  const provider = { paymentId: payment.id, provider: payment.provider, destination };
  // Nothing to pay back (a free item): there is no provider call to make.
  if (amountCents === 0)
    return insertPayout(tx, { ...provider, ...base, state: "succeeded", completedAt: now });
  const row = await insertPayout(tx, { ...provider, ...base, state: "pending" });
  await jobs.send<RefundPayoutJob>(REFUND_PAYOUT_JOB, { refundId: refund.id }, { tx });
  return row;
}

/** Queues the buyer's e-mail that the money went back, in the transaction that says so. */
async function tellBuyer(deps: RefundPayoutDeps, tx: Transaction, payout: PayoutRow) {
  const facts = await findPayoutMailFacts(tx, payout.refundId);
  if (!facts) return;
  await deps.mailer.send(
    {
      to: facts.email,
      ...refundSentMail({
        name: facts.customer.fullName,
        productName: facts.productName,
        amountCents: payout.amountCents,
        destination: payout.destination as AdminPayout["destination"],
        sentAt: payout.transferredOn ?? payout.completedAt?.toISOString() ?? new Date().toISOString(),
        link: { label: "View your orders", url: absoluteUrl(deps.origin, paths.dashboard()) },
      }),
    },
    { tx },
  );
}

/**
 * Applies a provider's answer about a payout (the refund call's, or a webhook's), inside the caller's
 * transaction, for the round it was about: a late answer about an earlier, refused round changes
 * nothing. Moving to succeeded (once only) queues the buyer's e-mail in the same transaction.
 */
async function applyAnswer(
  deps: RefundPayoutDeps,
  tx: Transaction,
  payout: PayoutRow,
  round: number,
  providerRefundRef: string | null,
  answer: RefundState,
  now: Date,
): Promise<PayoutRow> {
  if (round !== payout.round) return payout;
  const before = payout.state as PayoutState;
  const next = nextPayoutState(before, answer);
  const refKnown = providerRefundRef && !payout.providerRefundRef;
  if (next === before && !refKnown) return payout;
  const updated = await updatePayout(tx, payout.refundId, {
    state: next,
    ...(refKnown ? { providerRefundRef } : {}),
    ...(next === "failed" && before !== "failed" && answer.state === "failed"
      ? { failureReason: answer.reason }
      : {}),
    ...(next === "succeeded" && before !== "succeeded" ? { completedAt: now, failureReason: null } : {}),
    updatedAt: now,
  });
  if (next === "succeeded" && before !== "succeeded") {
    await bookRefundPaid(tx, updated, now);
    await tellBuyer(deps, tx, updated);
  }
  if (next === "failed" && before !== "failed") {
    deps.log.warn({ refundId: payout.refundId, provider: payout.provider }, "refund refused by the provider");
  }
  return updated;
}

/**
 * The job: asks the payout's provider to refund, keyed by the refund id and round. A provider that
 * cannot be reached throws, and the job is retried with back-off; an answer (paid back, refused, or
 * still processing) is recorded, and a refusal waits for an admin's retry.
 */
export async function runPayout(
  deps: RefundPayoutDeps,
  refundId: string,
  now = () => new Date(),
): Promise<void> {
  const payout = await findPayout(deps.db, refundId);
  if (payout?.state !== "pending") return;
  const provider = payout.provider ? deps.providers.byName(payout.provider) : null;
  if (!provider) throw new Error(`refund provider ${payout.provider} is not configured`);
  const providerRef = payout.paymentId ? await findPaymentRef(deps.db, payout.paymentId) : null;
  if (!providerRef) throw new Error("the refunded payment has no provider reference");
  await countPayoutAttempt(deps.db, refundId, now());
  const result = await provider.refund({
    refundId: providerRefundKey(refundId, payout.round),
    orderId: payout.orderId,
    providerRef,
    amountCents: payout.amountCents,
  });
  await deps.db.transaction(async (tx) => {
    const locked = await lockPayout(tx, refundId);
    if (!locked) return;
    await applyAnswer(deps, tx, locked, payout.round, result.providerRefundRef || null, result, now());
  });
}

export function refundPayoutJob(app: FastifyInstance): JobDefinition<RefundPayoutJob> {
  return {
    name: REFUND_PAYOUT_JOB,
    // About a day of retries (back-off from a minute, at most an hour apart), then the dead-letter queue.
    retryLimit: 30,
    retryDelaySeconds: 60,
    expireInSeconds: 120,
    describe: (job) => `Refund ${job.refundId.slice(0, 8).toUpperCase()}`,
    run: (job) => runPayout(refundPayoutDepsOf(app), job.refundId),
  };
}

/**
 * A provider's refund event, inside the webhook's transaction: found by the provider's refund
 * reference or by our key echoed back, applied like the refund call's answer. Answers the order it
 * was about, or null for a refund we do not know.
 */
export async function applyRefundEvent(
  deps: RefundPayoutDeps,
  tx: Transaction,
  providerName: string,
  event: Extract<PaymentEvent, { kind: "refund" }>,
  now: Date,
): Promise<string | null> {
  let payout = event.providerRefundRef
    ? await lockPayoutByProviderRef(tx, providerName, event.providerRefundRef)
    : undefined;
  let round = payout?.round ?? 0;
  if (!payout) {
    const key = parseProviderRefundKey(event.refundId);
    if (!key) return null;
    payout = await lockPayout(tx, key.refundId);
    if (!payout || payout.provider !== providerName) return null;
    round = key.round;
  }
  await applyAnswer(deps, tx, payout, round, event.providerRefundRef || null, event.result, now);
  return payout.orderId;
}

/** Admins: a refused payout goes to the provider again, as a new round of the same refund. */
export async function retryPayout(
  deps: RefundPayoutDeps,
  admin: UserRow,
  refundId: string,
  now = new Date(),
): Promise<AdminPayout> {
  return deps.db.transaction(async (tx) => {
    const payout = await lockPayout(tx, refundId);
    if (!payout) throw new NotFound("Refund payout not found.", "PAYOUT_NOT_FOUND");
    if (payout.state !== "failed") {
      throw new Conflict("Only a refused refund can be retried.", "PAYOUT_NOT_RETRYABLE");
    }
    const updated = await updatePayout(tx, refundId, {
      state: "pending",
      round: payout.round + 1,
      // The refused round's reference must not match the new round's events.
      providerRefundRef: null,
      failureReason: null,
      updatedAt: now,
    });
    await recordAudit(tx, admin, {
      action: "update",
      entityType: "refund",
      entityId: refundId,
      entityLabel: refundId.slice(0, 8),
      before: { payout: payout.state, failureReason: payout.failureReason, round: payout.round },
      after: { payout: updated.state, failureReason: null, round: updated.round },
    });
    await deps.jobs.send<RefundPayoutJob>(REFUND_PAYOUT_JOB, { refundId }, { tx });
    return toAdminPayout(updated);
  });
}

/** Admins: the operator made the bank transfer of a refund no provider can pay back; the buyer is told. */
export async function markTransferred(
  deps: RefundPayoutDeps,
  admin: UserRow,
  refundId: string,
  input: { reference: string; transferredOn: string },
  now = new Date(),
): Promise<AdminPayout> {
  return deps.db.transaction(async (tx) => {
    const payout = await lockPayout(tx, refundId);
    if (!payout) throw new NotFound("Refund payout not found.", "PAYOUT_NOT_FOUND");
    if (payout.state !== "awaiting_transfer") {
      throw new Conflict("This refund is not waiting for a transfer.", "PAYOUT_NOT_AWAITING_TRANSFER");
    }
    const updated = await updatePayout(tx, refundId, {
      state: "succeeded",
      transferReference: input.reference,
      transferredOn: input.transferredOn,
      completedAt: now,
      updatedAt: now,
    });
    await bookRefundPaid(tx, updated, now);
    await recordAudit(tx, admin, {
      action: "update",
      entityType: "refund",
      entityId: refundId,
      entityLabel: refundId.slice(0, 8),
      before: { payout: payout.state, transferReference: null, transferredOn: null },
      after: {
        payout: updated.state,
        transferReference: input.reference,
        transferredOn: input.transferredOn,
      },
    });
    await tellBuyer(deps, tx, updated);
    return toAdminPayout(updated);
  });
}
