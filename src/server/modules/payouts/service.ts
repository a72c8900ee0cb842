import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import { formatDateTime } from "#domain/dates";
import type { EarnerRole } from "#domain/earnings";
import type { BatchPayout, PayoutCandidate, PayoutPreview } from "#domain/finance";
import { accountId, type Payee, payoutFailedLines, payoutLines, payoutPaidLines } from "#domain/ledger";
import { fromUnits, toUnits } from "#domain/money";
import { type BankAccount, maskAccount, payoutHoldEnds } from "#domain/payouts";
import type { UserRow } from "#server/auth/guards";
import type { Database, Db, Transaction } from "#server/db/client";
import { publicUrl } from "#server/env";
import { Conflict, NotFound } from "#server/errors";
import type { JobDefinition, JobQueue } from "#server/jobs/queue";
import { recordAudit } from "#server/lib/audit";
import type { Mailer } from "#server/mail/mailer";
import { payoutFailedNotice, payoutPaidNotice, payoutSentNotice } from "#server/mail/payout-notices";
import { post } from "#server/modules/ledger/service";
import { notify } from "#server/modules/notifications/service";
import { unsealBankAccount } from "#server/modules/payout-accounts/service";
import {
  availableBalances,
  availableOf,
  batchPayouts,
  findBatch,
  findPayout,
  findPayoutAccounts,
  heldForOpenRefunds,
  insertBatch,
  insertPayout,
  lockBatches,
  lockPayout,
  type PayoutRow,
  updatePayout,
} from "#server/modules/payouts/repository";
import { type PayoutRails, TransferRefused } from "#server/payouts/transfers";

/** Where a payee's money goes, as their payout details say; only a ready one is paid. */
export type PayoutDestination = {
  method: "stripe" | "bank";
  /** Masked, as the payee sees it. */
  display: string;
  /** Why it cannot be paid yet (Stripe onboarding unfinished, details changed too recently), or null. */
  notReady: string | null;
  /** The Stripe connected account, for a transfer. */
  stripeAccountId: string | null;
  /** The bank details, sealed: a payout keeps this copy, and the bank file pays it. */
  bankSealed: string | null;
};

/** What payouts need from the payout details (the payout-accounts module) and the transfer rail. */
export type PayoutDeps = {
  db: Database;
  jobs: JobQueue;
  mailer: Mailer;
  log: FastifyBaseLogger;
  origin: string;
  /** Each payee's payout details as they stand at `now`: masked, whether payable, and what to pay to. */
  destinations(db: Db, userIds: string[], now: Date): Promise<Map<string, PayoutDestination>>;
  /** Bank details a payout kept (sealed), in full: for the bank payment file only. */
  unsealBank(sealed: string): BankAccount;
  /** Stripe Connect (or test mode): transfers to connected accounts. */
  rails: PayoutRails;
};

/**
 * Each payee's payout details as a batch sees them at `now`: masked, and whether they can be paid now.
 * Details changed within the cooling-off period wait, so a stolen session's new account is not paid
 * before the owner, e-mailed at the change, can stop it.
 */
function destinationsOf(coolingOffHours: number) {
  return async (db: Db, userIds: string[], now: Date) => {
    const rows = await findPayoutAccounts(db, userIds);
    return new Map(
      rows.map((row): [string, PayoutDestination] => {
        const holdEnds = payoutHoldEnds(row.detailsChangedAt, coolingOffHours);
        const cooling =
          holdEnds.getTime() > now.getTime()
            ? `Payout details changed recently: held until ${formatDateTime(holdEnds)}`
            : null;
        return [
          row.userId,
          row.method === "stripe"
            ? {
                method: "stripe",
                display: `Stripe ${row.stripeAccountId ? maskAccount(row.stripeAccountId) : "account"}`,
                notReady: row.stripeStatus === "enabled" ? cooling : "Stripe onboarding not finished",
                stripeAccountId: row.stripeStatus === "enabled" ? row.stripeAccountId : null,
                bankSealed: null,
              }
            : {
                method: "bank",
                display: row.bankMasked ?? "Bank account",
                notReady: cooling,
                stripeAccountId: null,
                bankSealed: row.bankSealed,
              },
        ];
      }),
    );
  };
}

/** The app's payouts: its database, jobs, mail, the payout details and the transfer rails. */
export function payoutDepsOf(app: FastifyInstance): PayoutDeps {
  const secret = app.env.AUTH_SECRET;
  if (!secret) throw new Error("AUTH_SECRET must be set to keep payout details");
  return {
    db: app.database.db,
    jobs: app.jobs,
    mailer: app.mailer,
    log: app.log,
    origin: publicUrl(app.env),
    destinations: destinationsOf(app.env.PAYOUT_COOLING_OFF_HOURS),
    unsealBank: (sealed) => unsealBankAccount(secret, sealed),
    rails: app.payoutRails,
  };
}

export const PAYOUT_TRANSFER_JOB = "payout-transfer";
type TransferJob = { payoutId: string };

const availableKind = (role: EarnerRole) => (role === "seller" ? "seller_available" : "reseller_available");
const roleOf = (kind: string): EarnerRole => (kind === "seller_available" ? "seller" : "reseller");
/** Payouts are made in whole cents; a fraction of a cent stays in the balance for the next one. */
const payableUnits = (available: number) => Math.floor(available / 100) * 100;
const usd = (units: number) => Number(fromUnits(units));

/**
 * Why a balance is not paid now, or null. `held` is what the balance holds of items whose refund
 * request is still open: it stays until the request is decided, so only the rest can be paid.
 */
function skipReason(
  available: number,
  held: number,
  minimum: number,
  destination: PayoutDestination | undefined,
) {
  if (available < 0) return "Negative balance: recovered from later earnings";
  if (payableUnits(available - held) < minimum) {
    return held > 0 ? "Held while refund requests on sold items are open" : "Below the minimum";
  }
  if (!destination) return "No payout details";
  return destination.notReady;
}

/** Every balance that could be paid now, and why any of them would not be. */
export async function previewPayouts(
  deps: PayoutDeps,
  minimumUsd: number,
  now: Date,
): Promise<PayoutPreview> {
  const minimum = toUnits(minimumUsd);
  const rows = await availableBalances(deps.db);
  const userIds = [...new Set(rows.flatMap((r) => (r.userId ? [r.userId] : [])))];
  const [destinations, held] = await Promise.all([
    deps.destinations(deps.db, userIds, now),
    heldForOpenRefunds(deps.db, userIds),
  ]);
  let total = 0;
  const candidates: PayoutCandidate[] = rows.flatMap((row) => {
    if (!row.userId) return [];
    const destination = destinations.get(row.userId);
    const role = roleOf(row.kind);
    const holding = role === "seller" ? (held.get(row.userId) ?? 0) : 0;
    const reason = skipReason(row.available, holding, minimum, destination);
    if (reason === null) total += payableUnits(row.available - holding);
    return [
      {
        userId: row.userId,
        name: row.name,
        email: row.email,
        role,
        available: usd(row.available),
        method: destination?.method ?? null,
        destination: destination?.display ?? null,
        skipReason: reason,
      },
    ];
  });
  return { minimum: minimumUsd, candidates, total: usd(total) };
}

/**
 * Approves a batch: under one lock (one batch at a time), each chosen payee's balance is read again and,
 * if still over the minimum with ready payout details, its whole cents (less what open refund requests
 * hold) leave the available balance into transit, in the same transaction as the payout row (with the
 * destination it was approved for, which is what the bank file and the transfer pay), its audit entry,
 * its e-mail and (Stripe) the transfer job. A payee who no longer qualifies is left out rather than
 * failing the batch.
 */
export async function runPayoutBatch(
  deps: PayoutDeps,
  admin: UserRow,
  input: { minimum: number; payees: { userId: string; role: EarnerRole }[] },
  now = new Date(),
) {
  const minimum = toUnits(input.minimum);
  const batchId = await deps.db.transaction(async (tx) => {
    await lockBatches(tx);
    const userIds = input.payees.map((p) => p.userId);
    const [destinations, held] = await Promise.all([
      deps.destinations(tx, userIds, now),
      heldForOpenRefunds(tx, userIds),
    ]);
    const batch = await insertBatch(tx, admin.id, fromUnits(minimum), now);
    let made = 0;
    for (const payee of input.payees) {
      const destination = destinations.get(payee.userId);
      const account = accountId({ kind: availableKind(payee.role), owner: payee.userId });
      const available = await availableOf(tx, account);
      const holding = payee.role === "seller" ? (held.get(payee.userId) ?? 0) : 0;
      if (skipReason(available, holding, minimum, destination) !== null || !destination) continue;
      const amount = payableUnits(available - holding);
      const row = await insertPayout(tx, {
        batchId: batch.id,
        userId: payee.userId,
        role: payee.role,
        amount: fromUnits(amount),
        method: destination.method,
        destination: destination.display,
        bankSealed: destination.method === "bank" ? destination.bankSealed : null,
        stripeAccountId: destination.method === "stripe" ? destination.stripeAccountId : null,
        createdAt: now,
        updatedAt: now,
      });
      await post(tx, {
        kind: "payout",
        sourceKey: `payout:${row.id}`,
        memo: `Payout to ${destination.display}`,
        payoutId: row.id,
        createdBy: admin.id,
        occurredAt: now,
        lines: payoutLines({ role: payee.role, owner: payee.userId }, amount),
      });
      await recordAudit(tx, admin, {
        action: "create",
        entityType: "payout",
        entityId: row.id,
        entityLabel: `${payee.role} payout ${row.id.slice(0, 8)}`,
        before: null,
        after: { amount: row.amount, method: row.method, destination: row.destination, batchId: batch.id },
      });
      await notify(deps.jobs, tx, payee.userId, payoutSentNotice(usd(amount), destination.display), now);
      if (destination.method === "stripe") {
        await deps.jobs.send<TransferJob>(PAYOUT_TRANSFER_JOB, { payoutId: row.id }, { tx });
      }
      made++;
    }
    if (made === 0) throw new Conflict("No chosen balance can be paid now.", "NOTHING_TO_PAY");
    return batch.id;
  });
  return batchDetail(deps.db, batchId);
}

/** The payout arrived: booked out of transit, the payee told; once only. */
async function settlePaid(
  deps: PayoutDeps,
  tx: Transaction,
  payout: PayoutRow,
  reference: string,
  now: Date,
) {
  // The copy of the bank details served its one purpose: it is not kept once the payout is settled.
  const updated = await updatePayout(tx, payout.id, {
    status: "paid",
    reference,
    paidAt: now,
    bankSealed: null,
    updatedAt: now,
  });
  await post(tx, {
    kind: "payout_paid",
    sourceKey: `payout_paid:${payout.id}`,
    memo: `Payout ${payout.id.slice(0, 8)} paid (${reference})`,
    payoutId: payout.id,
    occurredAt: now,
    lines: payoutPaidLines(toUnits(payout.amount)),
  });
  await notify(
    deps.jobs,
    tx,
    payout.userId,
    payoutPaidNotice(Number(payout.amount), payout.destination, reference),
    now,
  );
  return updated;
}

/** The payout failed: the money goes back to the payee's available balance, with the reason. */
async function settleFailed(deps: PayoutDeps, tx: Transaction, payout: PayoutRow, reason: string, now: Date) {
  const updated = await updatePayout(tx, payout.id, {
    status: "failed",
    failureReason: reason,
    bankSealed: null,
    updatedAt: now,
  });
  const payee: Payee = { role: payout.role, owner: payout.userId };
  await post(tx, {
    kind: "payout_failed",
    sourceKey: `payout_failed:${payout.id}`,
    memo: `Payout ${payout.id.slice(0, 8)} failed: ${reason}`,
    payoutId: payout.id,
    occurredAt: now,
    lines: payoutFailedLines(payee, toUnits(payout.amount)),
  });
  await notify(
    deps.jobs,
    tx,
    payout.userId,
    payoutFailedNotice(Number(payout.amount), payout.destination, reason),
    now,
  );
  return updated;
}

/**
 * The Stripe transfer of one payout, as a job: keyed by the payout id, so a retry after a crash or a
 * timeout is answered with the transfer already made rather than paying twice. A refusal fails the
 * payout (money back to the balance); an unreachable Stripe throws and the job is retried.
 */
export function payoutTransferJob(depsOf: () => PayoutDeps): JobDefinition<TransferJob> {
  return {
    name: PAYOUT_TRANSFER_JOB,
    retryLimit: 8,
    retryDelaySeconds: 30,
    describe: (data) => `Transfer payout ${data.payoutId.slice(0, 8)}`,
    async run({ payoutId }) {
      // Built when the job runs: the app's queue, mailer and rails do not exist yet when jobs are listed.
      const deps = depsOf();
      const payout = await findPayout(deps.db, payoutId);
      if (payout?.status !== "processing" || payout.method !== "stripe") return;
      // The account the batch approved, whatever the payout details say now.
      const stripeAccountId = payout.stripeAccountId;
      const now = new Date();
      let outcome: { transferId: string } | { refused: string };
      if (!stripeAccountId) outcome = { refused: "No Stripe account was approved with this payout" };
      else {
        try {
          outcome = await deps.rails.createTransfer({
            payoutId,
            accountId: stripeAccountId,
            amountCents: Math.round(toUnits(payout.amount) / 100),
            idempotencyKey: `payout-${payoutId}`,
          });
        } catch (error) {
          if (!(error instanceof TransferRefused)) throw error;
          outcome = { refused: error.reason };
        }
      }
      await deps.db.transaction(async (tx) => {
        const locked = await lockPayout(tx, payoutId);
        if (locked?.status !== "processing") return;
        if ("transferId" in outcome) await settlePaid(deps, tx, locked, outcome.transferId, now);
        else {
          deps.log.warn({ payoutId }, "payout transfer refused");
          await settleFailed(deps, tx, locked, outcome.refused, now);
        }
      });
    },
  };
}

/** An admin's word on a bank payout: paid (with the bank's reference) or failed (with the reason). */
export async function settlePayoutByHand(
  deps: PayoutDeps,
  admin: UserRow,
  id: string,
  outcome: { paid: string } | { failed: string },
  now = new Date(),
): Promise<BatchPayout> {
  await deps.db.transaction(async (tx) => {
    const payout = await lockPayout(tx, id);
    if (!payout) throw new NotFound("Payout not found.", "PAYOUT_NOT_FOUND");
    if (payout.status !== "processing") {
      throw new Conflict("This payout is already settled.", "PAYOUT_SETTLED");
    }
    if ("paid" in outcome && payout.method !== "bank") {
      throw new Conflict("Stripe payouts are marked paid by Stripe's answer.", "PAYOUT_NOT_BANK");
    }
    const updated =
      "paid" in outcome
        ? await settlePaid(deps, tx, payout, outcome.paid, now)
        : await settleFailed(deps, tx, payout, outcome.failed, now);
    await recordAudit(tx, admin, {
      action: "update",
      entityType: "payout",
      entityId: id,
      entityLabel: `${payout.role} payout ${id.slice(0, 8)}`,
      before: { status: payout.status },
      after: { status: updated.status, reference: updated.reference, failureReason: updated.failureReason },
    });
  });
  const rows = await batchPayouts(deps.db, (await findPayout(deps.db, id))?.batchId ?? "");
  const row = rows.find((r) => r.payout.id === id);
  if (!row) throw new NotFound("Payout not found.", "PAYOUT_NOT_FOUND");
  return toBatchPayout(row);
}

function toBatchPayout(row: Awaited<ReturnType<typeof batchPayouts>>[number]): BatchPayout {
  const p = row.payout;
  return {
    id: p.id,
    batchId: p.batchId,
    role: p.role,
    amount: Number(p.amount),
    method: p.method,
    status: p.status,
    reference: p.reference,
    failureReason: p.failureReason,
    createdAt: p.createdAt.toISOString(),
    paidAt: p.paidAt?.toISOString() ?? null,
    userId: p.userId,
    name: row.name,
    email: row.email,
    destination: p.destination,
  };
}

type BatchFigures = NonNullable<Awaited<ReturnType<typeof findBatch>>>;
export const toBatch = (row: BatchFigures) => ({
  id: row.id,
  createdAt: row.createdAt.toISOString(),
  createdBy: row.createdBy,
  total: Number(row.total),
  count: row.count,
  paid: row.paid,
  processing: row.processing,
  failed: row.failed,
});

export async function batchDetail(db: Database, id: string) {
  const [batch, rows] = await Promise.all([findBatch(db, id), batchPayouts(db, id)]);
  if (!batch) throw new NotFound("Payout batch not found.", "PAYOUT_BATCH_NOT_FOUND");
  return { ...toBatch(batch), payouts: rows.map(toBatchPayout) };
}
