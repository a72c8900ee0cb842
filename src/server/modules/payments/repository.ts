import { and, asc, desc, eq, isNotNull, isNull, lt, notExists } from "drizzle-orm";
import type { Db, Transaction } from "#server/db/client";
import { user } from "#server/db/schema/auth";
import { orders } from "#server/db/schema/orders";
import { paymentEvents, payments } from "#server/db/schema/payments";

export type PaymentRow = typeof payments.$inferSelect;

/** The order's row locked for the rest of the transaction, or undefined. */
export async function lockOrder(tx: Transaction, orderId: string) {
  const [row] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("no key update");
  return row;
}

/** The order if `ownerId` placed it (any order's when null). */
export async function findOwnedOrder(db: Db, orderId: string, ownerId: string | null) {
  const where =
    ownerId === null ? eq(orders.id, orderId) : and(eq(orders.id, orderId), eq(orders.userId, ownerId));
  const [row] = await db
    .select({
      id: orders.id,
      userId: orders.userId,
      paymentStatus: orders.paymentStatus,
      paymentMethod: orders.paymentMethod,
      cancelledAt: orders.cancelledAt,
    })
    .from(orders)
    .where(where);
  return row;
}

export async function accountEmail(db: Db, userId: string): Promise<string> {
  const [row] = await db.select({ email: user.email }).from(user).where(eq(user.id, userId));
  return row?.email ?? "";
}

export async function latestPayment(db: Db, orderId: string): Promise<PaymentRow | undefined> {
  const [row] = await db
    .select()
    .from(payments)
    .where(eq(payments.orderId, orderId))
    .orderBy(desc(payments.attempt))
    .limit(1);
  return row;
}

export async function insertPayment(
  tx: Transaction,
  values: typeof payments.$inferInsert,
): Promise<PaymentRow> {
  const [row] = await tx.insert(payments).values(values).returning();
  if (!row) throw new Error("payment insert returned nothing");
  return row;
}

/** Off-session attempts still pending without the provider's reference, opened before `before`. */
export async function unsentSavedCharges(db: Db, before: Date, limit: number): Promise<PaymentRow[]> {
  return db
    .select()
    .from(payments)
    .where(
      and(
        eq(payments.state, "pending"),
        isNull(payments.providerRef),
        isNotNull(payments.savedMethodId),
        lt(payments.createdAt, before),
      ),
    )
    .orderBy(asc(payments.createdAt))
    .limit(limit);
}

/** Records the provider's session id on an attempt that has none yet. */
export async function setProviderRef(db: Db, paymentId: string, providerRef: string): Promise<void> {
  await db
    .update(payments)
    .set({ providerRef, updatedAt: new Date() })
    .where(and(eq(payments.id, paymentId), isNull(payments.providerRef)));
}

export async function lockPayment(tx: Transaction, paymentId: string): Promise<PaymentRow | undefined> {
  const [row] = await tx.select().from(payments).where(eq(payments.id, paymentId)).for("update");
  return row;
}

/**
 * The attempt a provider's event is about: by its session id, or, when a crash came between the
 * provider's answer and recording it, the order's newest attempt at that provider still without one.
 */
export async function findPaymentForEvent(
  tx: Transaction,
  provider: string,
  providerRef: string,
  orderId: string | null,
): Promise<PaymentRow | undefined> {
  const [byRef] = await tx
    .select()
    .from(payments)
    .where(and(eq(payments.provider, provider), eq(payments.providerRef, providerRef)));
  if (byRef || !orderId || !/^[0-9a-f-]{36}$/i.test(orderId)) return byRef;
  const [unrecorded] = await tx
    .select()
    .from(payments)
    .where(and(eq(payments.orderId, orderId), eq(payments.provider, provider), isNull(payments.providerRef)))
    .orderBy(desc(payments.attempt))
    .limit(1);
  if (unrecorded) await setProviderRef(tx, unrecorded.id, providerRef);
  return unrecorded ? { ...unrecorded, providerRef } : undefined;
}

export async function updatePayment(
  tx: Transaction,
  paymentId: string,
  values: { state: PaymentRow["state"]; reason: string | null; updatedAt: Date },
): Promise<void> {
  await tx.update(payments).set(values).where(eq(payments.id, paymentId));
}

/** Stores the event once; false when this provider's event id was stored before. */
export async function insertEventOnce(
  tx: Transaction,
  values: { provider: string; eventId: string; kind: string; receivedAt: Date },
): Promise<boolean> {
  const rows = await tx
    .insert(paymentEvents)
    .values(values)
    .onConflictDoNothing({ target: [paymentEvents.provider, paymentEvents.eventId] })
    .returning({ eventId: paymentEvents.eventId });
  return rows.length > 0;
}

export async function setEventOrder(tx: Transaction, provider: string, eventId: string, orderId: string) {
  await tx
    .update(paymentEvents)
    .set({ orderId })
    .where(and(eq(paymentEvents.provider, provider), eq(paymentEvents.eventId, eventId)));
}

/** Payments still pending that were opened before `before`, oldest first. */
export async function stalePendingPayments(db: Db, before: Date, limit: number): Promise<PaymentRow[]> {
  return db
    .select()
    .from(payments)
    .where(and(eq(payments.state, "pending"), lt(payments.createdAt, before)))
    .orderBy(asc(payments.createdAt))
    .limit(limit);
}

/**
 * Orders still pending with no payment attempt at all, placed before `before`, oldest first: committed
 * just before a crash, ahead of the attempt that `startPayment` opens right after.
 */
export async function pendingOrdersWithoutAttempt(db: Db, before: Date, limit: number) {
  return db
    .select({ id: orders.id })
    .from(orders)
    .where(
      and(
        eq(orders.paymentStatus, "pending"),
        lt(orders.createdAt, before),
        notExists(db.select({ id: payments.id }).from(payments).where(eq(payments.orderId, orders.id))),
      ),
    )
    .orderBy(asc(orders.createdAt))
    .limit(limit);
}
