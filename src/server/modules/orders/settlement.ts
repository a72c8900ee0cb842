import { and, eq, inArray } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { PaymentStatus } from "#domain/checkout";
import { isPaidStatus, type OrderActor, sourcesOf, transitionRefusal } from "#domain/order-states";
import type { UserRow } from "#server/auth/guards";
import type { Database, Transaction } from "#server/db/client";
import { orders, type StoredReferral } from "#server/db/schema/orders";
import { Conflict, NotFound } from "#server/errors";
import { recordAudit } from "#server/lib/audit";
import { issueLicenses } from "#server/modules/licenses/service";
import { type Referral, recordCommissions } from "#server/modules/referrals/service";

/** What settling an order needs; built once from the app (see `settlementOf` in sweeper.ts). */
export type Settlement = {
  db: Database;
  /** The refund window, which is also how long a new commission waits before it is approved. */
  refundWindowDays: number;
  /** Sends the order's confirmation e-mail. */
  mail: (orderId: string) => Promise<void>;
  log: FastifyBaseLogger;
};

export class InvalidOrderTransition extends Conflict {
  constructor(reason: string) {
    super(reason, "INVALID_ORDER_TRANSITION");
  }
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
 * from, and in the same transaction issues its licence keys and records its commissions and that its
 * confirmation e-mail is owed. The conditional update is the guard: of any number of concurrent or
 * repeated calls, exactly one finds the order unconfirmed and delivers; the others answer false.
 */
export async function deliverInTx(
  tx: Transaction,
  orderId: string,
  actor: OrderActor,
  refundWindowDays: number,
  now: Date,
): Promise<boolean> {
  const [row] = await tx
    .update(orders)
    .set({
      paymentStatus: "mock_confirmed",
      isPaid: true,
      confirmationDueAt: now,
      updatedAt: now,
    })
    .where(and(eq(orders.id, orderId), inArray(orders.paymentStatus, sourcesOf("mock_confirmed", actor))))
    .returning({ userId: orders.userId, referral: orders.referral });
  if (!row) return false;
  await issueLicenses(tx, orderId, now);
  await recordCommissions(tx, orderId, row.userId, loadReferral(row.referral), now, refundWindowDays);
  return true;
}

/**
 * Sends the confirmation e-mail the delivery made owed, then clears the marker. A failure leaves the
 * marker set for the sweeper to try again later; it never undoes the order.
 */
export async function sendConfirmation(s: Settlement, orderId: string): Promise<void> {
  try {
    await s.mail(orderId);
    await s.db.update(orders).set({ confirmationDueAt: null }).where(eq(orders.id, orderId));
  } catch (error) {
    s.log.error({ err: error, orderId }, "order confirmation e-mail failed; the sweeper will try again");
  }
}

/** Delivers in its own transaction and, if this call was the one that delivered, sends the e-mail. */
export async function deliver(
  s: Settlement,
  orderId: string,
  actor: OrderActor,
  now = new Date(),
): Promise<boolean> {
  const delivered = await s.db.transaction((tx) => deliverInTx(tx, orderId, actor, s.refundWindowDays, now));
  if (delivered) await sendConfirmation(s, orderId);
  return delivered;
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
  now = new Date(),
): Promise<void> {
  const delivered = await s.db.transaction(async (tx) => {
    const [before] = await tx
      .select({ paymentStatus: orders.paymentStatus, isPaid: orders.isPaid })
      .from(orders)
      .where(eq(orders.id, orderId))
      .for("update");
    if (!before) throw new NotFound("Order not found.", "ORDER_NOT_FOUND");
    assertTransition(before.paymentStatus, to, "admin");
    if (before.paymentStatus === to) return false;
    const after = { paymentStatus: to, isPaid: isPaidStatus(to) };
    const confirmed =
      to === "mock_confirmed" && (await deliverInTx(tx, orderId, "admin", s.refundWindowDays, now));
    if (to !== "mock_confirmed") {
      await tx
        .update(orders)
        .set({ ...after, updatedAt: now })
        .where(eq(orders.id, orderId));
    }
    await recordAudit(tx, admin, {
      action: "update",
      entityType: "order",
      entityId: orderId,
      entityLabel: orderId.slice(0, 8),
      before,
      after,
    });
    return confirmed;
  });
  if (delivered) await sendConfirmation(s, orderId);
}
