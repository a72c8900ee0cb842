import { and, asc, eq, isNull, lte } from "drizzle-orm";
import type { Db, Transaction } from "#server/db/client";
import { user } from "#server/db/schema/auth";
import { orders } from "#server/db/schema/orders";
import { bankTransferOrders, bankTransfers } from "#server/db/schema/payments";

export type BankTransferOrderRow = typeof bankTransferOrders.$inferSelect;
export type BankTransferRow = typeof bankTransfers.$inferSelect;

/** Stores an order's instructions; false when the reference is taken (the caller tries the next one). */
export async function insertInstructionsOnce(
  tx: Transaction,
  values: { orderId: string; reference: string; amountDue: string; dueAt: Date },
): Promise<boolean> {
  const rows = await tx
    .insert(bankTransferOrders)
    .values(values)
    .onConflictDoNothing({ target: bankTransferOrders.reference })
    .returning({ orderId: bankTransferOrders.orderId });
  return rows.length > 0;
}

/** A bank-transfer order with its instructions; `ownerId` null reads anyone's (admins). */
export async function findTransferOrder(db: Db, orderId: string, ownerId: string | null) {
  const where =
    ownerId === null ? eq(orders.id, orderId) : and(eq(orders.id, orderId), eq(orders.userId, ownerId));
  const [row] = await db
    .select({
      orderId: orders.id,
      userId: orders.userId,
      paymentStatus: orders.paymentStatus,
      totalAmount: orders.totalAmount,
      cancelledAt: orders.cancelledAt,
      reference: bankTransferOrders.reference,
      amountDue: bankTransferOrders.amountDue,
      dueAt: bankTransferOrders.dueAt,
      expiredAt: bankTransferOrders.expiredAt,
    })
    .from(orders)
    .innerJoin(bankTransferOrders, eq(bankTransferOrders.orderId, orders.id))
    .where(where);
  return row;
}
export type TransferOrder = NonNullable<Awaited<ReturnType<typeof findTransferOrder>>>;

/** The order's row locked for the rest of the transaction, so two admins' records add up in turn. */
export async function lockTransferOrder(
  tx: Transaction,
  orderId: string,
): Promise<TransferOrder | undefined> {
  await tx.select({ id: orders.id }).from(orders).where(eq(orders.id, orderId)).for("no key update");
  return findTransferOrder(tx, orderId, null);
}

export async function orderIdByReference(db: Db, reference: string): Promise<string | undefined> {
  const [row] = await db
    .select({ orderId: bankTransferOrders.orderId })
    .from(bankTransferOrders)
    .where(eq(bankTransferOrders.reference, reference));
  return row?.orderId;
}

export async function transfersOf(db: Db, orderId: string) {
  return db
    .select({
      id: bankTransfers.id,
      amount: bankTransfers.amount,
      receivedOn: bankTransfers.receivedOn,
      bankReference: bankTransfers.bankReference,
      recordedAt: bankTransfers.recordedAt,
      recordedBy: user.email,
    })
    .from(bankTransfers)
    .leftJoin(user, eq(user.id, bankTransfers.recordedBy))
    .where(eq(bankTransfers.orderId, orderId))
    .orderBy(asc(bankTransfers.receivedOn), asc(bankTransfers.recordedAt));
}

export async function findTransferByBankReference(tx: Transaction, orderId: string, bankReference: string) {
  const [row] = await tx
    .select()
    .from(bankTransfers)
    .where(and(eq(bankTransfers.orderId, orderId), eq(bankTransfers.bankReference, bankReference)));
  return row;
}

export async function insertTransfer(
  tx: Transaction,
  values: typeof bankTransfers.$inferInsert,
): Promise<BankTransferRow> {
  const [row] = await tx.insert(bankTransfers).values(values).returning();
  if (!row) throw new Error("bank transfer insert returned nothing");
  return row;
}

export async function accountEmailOf(db: Db, userId: string): Promise<string> {
  const [row] = await db.select({ email: user.email }).from(user).where(eq(user.id, userId));
  return row?.email ?? "";
}

/** Orders still awaiting their transfer whose due date has come, oldest first. */
export async function dueUnpaidOrders(db: Db, now: Date, limit: number): Promise<string[]> {
  const rows = await db
    .select({ orderId: bankTransferOrders.orderId })
    .from(bankTransferOrders)
    .innerJoin(orders, eq(orders.id, bankTransferOrders.orderId))
    .where(
      and(
        eq(orders.paymentStatus, "processing"),
        isNull(bankTransferOrders.expiredAt),
        lte(bankTransferOrders.dueAt, now),
      ),
    )
    .orderBy(asc(bankTransferOrders.dueAt))
    .limit(limit);
  return rows.map((r) => r.orderId);
}

export async function setExpiry(
  tx: Transaction,
  orderId: string,
  values: { dueAt?: Date; expiredAt: Date | null },
): Promise<void> {
  await tx.update(bankTransferOrders).set(values).where(eq(bankTransferOrders.orderId, orderId));
}
