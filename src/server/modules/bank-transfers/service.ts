import type { FastifyInstance } from "fastify";
import {
  type AdminBankTransfer,
  applyTransfers,
  type BankTransfer,
  type RecordedTransfer,
  type RecordTransferAnswer,
  transferAmountDue,
  transferExpiresAt,
  transferReference,
} from "#domain/bank-transfer";
import { absoluteUrl, paths } from "#domain/routes";
import type { UserRow } from "#server/auth/guards";
import type { Transaction } from "#server/db/client";
import { publicUrl } from "#server/env";
import { AppError, Conflict, NotFound } from "#server/errors";
import { recordAudit } from "#server/lib/audit";
import { bankTransferInstructionsMail } from "#server/mail/bank-transfer-mail";
import {
  accountEmailOf,
  dueUnpaidOrders,
  findTransferByBankReference,
  findTransferOrder,
  insertInstructionsOnce,
  insertTransfer,
  lockTransferOrder,
  orderIdByReference,
  setExpiry,
  type TransferOrder,
  transfersOf,
} from "#server/modules/bank-transfers/repository";
import type { PaymentDeps } from "#server/modules/payments/service";
import { setOrderPaymentStatus } from "#server/modules/settlement/repository";
import { assertTransition, deliverInTx, settlementOf } from "#server/modules/settlement/service";

/** What bank transfers need from the app (a part of the payments'); `bankTransferDepsOf(app)` builds it. */
export type BankTransferDeps = Pick<PaymentDeps, "db" | "providers" | "origin" | "mailer" | "settlement">;

export function bankTransferDepsOf(app: FastifyInstance): BankTransferDeps {
  return {
    db: app.database.db,
    providers: app.payments,
    origin: publicUrl(app.env),
    mailer: app.mailer,
    settlement: settlementOf(app),
  };
}

/** Every reference clash is a 1-in-a-trillion event per try; ten in a row means something else is wrong. */
const MAX_REFERENCE_ATTEMPTS = 10;
const EXPIRE_BATCH = 100;

const orderNotFound = () => new NotFound("Order not found.", "ORDER_NOT_FOUND");

/** The order as `placeOrder` (or a retry) has it in the transaction. */
type PlacedOrder = { id: string; userId: string; totalAmount: string; customerInfo: { fullName: string } };

async function queueInstructions(
  deps: BankTransferDeps,
  tx: Transaction,
  order: PlacedOrder,
  instructions: { reference: string; amountDue: string; dueAt: Date },
): Promise<void> {
  const mail = bankTransferInstructionsMail({
    orderId: order.id,
    fullName: order.customerInfo.fullName,
    ...instructions,
    details: deps.providers.bankTransfer.details,
    orderUrl: absoluteUrl(deps.origin, paths.checkoutComplete(order.id)),
  });
  // To the account's address, as every order e-mail: it carries no secret, only how to pay.
  await deps.mailer.send({ to: await accountEmailOf(tx, order.userId), ...mail }, { tx });
}

/**
 * Gives a bank-transfer order its instructions, in the transaction that creates it: a unique reference
 * (the next attempt of `transferReference` on a clash), the amount due in whole cents and the due date;
 * and queues the instructions e-mail in the same transaction, so it exists exactly when the order does.
 */
export async function openBankTransfer(
  deps: BankTransferDeps,
  tx: Transaction,
  order: PlacedOrder,
  now: Date,
): Promise<void> {
  const amountDue = transferAmountDue(order.totalAmount);
  const dueAt = transferExpiresAt(now, deps.providers.bankTransfer.expiryDays);
  for (let attempt = 0; attempt < MAX_REFERENCE_ATTEMPTS; attempt++) {
    const reference = transferReference(order.id, attempt);
    if (await insertInstructionsOnce(tx, { orderId: order.id, reference, amountDue, dueAt })) {
      await queueInstructions(deps, tx, order, { reference, amountDue, dueAt });
      return;
    }
  }
  throw new Error(`no free transfer reference for order ${order.id}`);
}

/**
 * The buyer places an expired bank-transfer order again: it awaits funds once more, with the same
 * reference and amount and a new due date, and the instructions are e-mailed again. Transfers already
 * recorded still count towards it.
 */
export async function reopenBankTransfer(
  deps: BankTransferDeps,
  tx: Transaction,
  order: PlacedOrder & { paymentStatus: string },
  now: Date,
): Promise<void> {
  assertTransition(order.paymentStatus, "processing", "buyer");
  const transfer = await findTransferOrder(tx, order.id, null);
  if (!transfer) throw new Error(`bank-transfer order ${order.id} has no instructions`);
  const dueAt = transferExpiresAt(now, deps.providers.bankTransfer.expiryDays);
  await setOrderPaymentStatus(tx, order.id, { paymentStatus: "processing", isPaid: false }, now);
  await setExpiry(tx, order.id, { dueAt, expiredAt: null });
  await queueInstructions(deps, tx, order, {
    reference: transfer.reference,
    amountDue: transfer.amountDue,
    dueAt,
  });
}

async function answerOf(deps: BankTransferDeps, order: TransferOrder): Promise<BankTransfer> {
  const transfers = await transfersOf(deps.db, order.orderId);
  return {
    orderId: order.orderId,
    reference: order.reference,
    amountDue: order.amountDue,
    dueAt: order.dueAt.toISOString(),
    expired: order.expiredAt !== null,
    paymentStatus: order.paymentStatus,
    details: deps.providers.bankTransfer.details,
    standing: applyTransfers(
      order.totalAmount,
      transfers.map((t) => t.amount),
    ),
  };
}

/** A buyer's own bank-transfer order: someone else's, or an order paid another way, is not found. */
export async function buyerBankTransfer(
  deps: BankTransferDeps,
  orderId: string,
  ownerId: string,
): Promise<BankTransfer> {
  const order = await findTransferOrder(deps.db, orderId, ownerId);
  if (!order) throw orderNotFound();
  return answerOf(deps, order);
}

export async function adminBankTransfer(deps: BankTransferDeps, orderId: string): Promise<AdminBankTransfer> {
  const order = await findTransferOrder(deps.db, orderId, null);
  if (!order) throw orderNotFound();
  const [answer, transfers, accountEmail] = await Promise.all([
    answerOf(deps, order),
    transfersOf(deps.db, orderId),
    accountEmailOf(deps.db, order.userId),
  ]);
  return {
    ...answer,
    accountEmail,
    totalAmount: order.totalAmount,
    transfers: transfers.map((t) => ({
      id: t.id,
      amount: t.amount,
      receivedOn: t.receivedOn,
      bankReference: t.bankReference,
      recordedAt: t.recordedAt.toISOString(),
      recordedBy: t.recordedBy,
    })),
  };
}

/** The order a reference names (already normalised by `parseTransferReference`). */
export async function orderByReference(
  deps: BankTransferDeps,
  reference: string,
): Promise<{ orderId: string }> {
  const orderId = await orderIdByReference(deps.db, reference);
  if (!orderId) throw new NotFound("No order has this transfer reference.", "TRANSFER_REFERENCE_NOT_FOUND");
  return { orderId };
}

export class TransferAlreadyRecorded extends Conflict {
  constructor(bankReference: string) {
    super(
      `A transfer with the bank reference ${bankReference} is already recorded for this order with another amount or day. Check the bank statement; if it is a different transfer, enter its own reference.`,
      "TRANSFER_ALREADY_RECORDED",
    );
  }
}

export class OrderNotAwaitingTransfer extends AppError {
  constructor(why: "paid" | "cancelled" = "paid") {
    super(
      409,
      "ORDER_NOT_AWAITING_TRANSFER",
      why === "paid"
        ? "This order is already paid; a further transfer for it is returned to the sender, not recorded."
        : "This order was cancelled (a subscription's renewal after the subscription ended), so nothing is due on it; the transfer is returned to the sender, not recorded.",
    );
  }
}

/**
 * An admin records a transfer the operator's bank received. Stored and audited, then the order's
 * transfers are added up: short of the amount due, the order stays processing; covered (or more), it
 * is delivered through the one delivery, as "transfer", in the same transaction as the transfer row,
 * so the money and the licenses exist together or not at all. The same bank reference for the same
 * order again is the same transfer: answered as it stands, stored once.
 *
 * A transfer recorded after the order expired still confirms it: the money did arrive, and the buyer
 * paid for what they ordered (the state machine lets "transfer" confirm a failed order for this).
 */
export async function recordTransfer(
  deps: BankTransferDeps,
  admin: UserRow,
  orderId: string,
  input: RecordedTransfer,
  now = deps.settlement.clock.now(),
): Promise<RecordTransferAnswer> {
  const outcome = await deps.db.transaction(async (tx) => {
    const order = await lockTransferOrder(tx, orderId);
    if (!order) throw orderNotFound();
    const same = await findTransferByBankReference(tx, orderId, input.bankReference);
    if (same) {
      if (same.amount !== input.amount || same.receivedOn !== input.receivedOn)
        throw new TransferAlreadyRecorded(input.bankReference);
      return { recorded: false, delivered: false };
    }
    if (order.paymentStatus !== "processing" && order.paymentStatus !== "failed")
      throw new OrderNotAwaitingTransfer();
    // A cancelled order (a renewal of a subscription that ended) delivers nothing, however late paid.
    if (order.cancelledAt) throw new OrderNotAwaitingTransfer("cancelled");
    const transfer = await insertTransfer(tx, {
      orderId,
      amount: input.amount,
      receivedOn: input.receivedOn,
      bankReference: input.bankReference,
      recordedBy: admin.id,
      recordedAt: now,
    });
    const received = (await transfersOf(tx, orderId)).map((t) => t.amount);
    const standing = applyTransfers(order.totalAmount, received);
    const delivered =
      standing.status === "paid" || standing.status === "overpaid"
        ? await deliverInTx(deps.settlement, tx, orderId, "transfer", now)
        : false;
    await recordAudit(tx, admin, {
      action: "create",
      entityType: "bank_transfer",
      entityId: transfer.id,
      entityLabel: order.reference,
      before: null,
      after: {
        orderId,
        amount: input.amount,
        receivedOn: input.receivedOn,
        bankReference: input.bankReference,
        standing: standing.explanation,
        ...(delivered ? { paymentStatus: "mock_confirmed" } : {}),
      },
    });
    return { recorded: true, delivered };
  });
  return { ...outcome, transfer: await adminBankTransfer(deps, orderId) };
}

/**
 * Part of the reconciliation pass: bank-transfer orders still awaiting their money when the due date
 * comes fail with the reason "expired" (their buyer can place them again). Transfers already recorded
 * stay recorded, and a later one still confirms the order (see `recordTransfer`).
 */
export async function expireBankTransfers(deps: BankTransferDeps, now: Date): Promise<number> {
  let expired = 0;
  for (const orderId of await dueUnpaidOrders(deps.db, now, EXPIRE_BATCH)) {
    const moved = await deps.db.transaction(async (tx) => {
      const order = await lockTransferOrder(tx, orderId);
      // Re-read under the lock: a transfer recorded meanwhile may have confirmed it.
      if (order?.paymentStatus !== "processing" || order.dueAt.getTime() > now.getTime()) return false;
      assertTransition(order.paymentStatus, "failed", "transfer");
      await setOrderPaymentStatus(tx, orderId, { paymentStatus: "failed", isPaid: false }, now);
      await setExpiry(tx, orderId, { expiredAt: now });
      return true;
    });
    if (moved) expired++;
  }
  return expired;
}
