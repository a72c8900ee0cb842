import { and, eq, inArray } from "drizzle-orm";
import type { PaymentStatus } from "#domain/checkout";
import type { Transaction } from "#server/db/client";
import { orders, type StoredReferral } from "#server/db/schema/orders";

export type { StoredReferral };

/**
 * Confirms the order if its status is one of `from` (the conditional update is the guard against a
 * second delivery); answers its buyer and stored referral, or undefined when it was not in `from`.
 */
export async function confirmOrderIfIn(tx: Transaction, orderId: string, from: readonly string[], now: Date) {
  const [row] = await tx
    .update(orders)
    .set({ paymentStatus: "mock_confirmed", isPaid: true, updatedAt: now })
    .where(and(eq(orders.id, orderId), inArray(orders.paymentStatus, [...from])))
    .returning({ userId: orders.userId, referral: orders.referral });
  return row;
}

/** The order's status and paid flag, the row locked against other status changes until the transaction ends. */
export async function lockOrderStatus(tx: Transaction, orderId: string) {
  const [row] = await tx
    .select({ paymentStatus: orders.paymentStatus, isPaid: orders.isPaid })
    .from(orders)
    .where(eq(orders.id, orderId))
    // Not FOR UPDATE: that also waits for the key-share locks that rows referencing the order take
    // (a webhook's event row, holding its payment row), and deadlocks with the payment's own path.
    .for("no key update");
  return row;
}

/**
 * Sets the order's payment status and paid flag (and, for a buyer's cancel, when it was cancelled).
 * With `onlyFrom`, only an order whose status is one of those moves; answers whether it moved.
 */
export async function setOrderPaymentStatus(
  tx: Transaction,
  orderId: string,
  values: { paymentStatus: PaymentStatus; isPaid: boolean; cancelledAt?: Date },
  now: Date,
  onlyFrom?: readonly string[],
): Promise<boolean> {
  const moved = await tx
    .update(orders)
    .set({ ...values, updatedAt: now })
    .where(and(eq(orders.id, orderId), onlyFrom ? inArray(orders.paymentStatus, [...onlyFrom]) : undefined))
    .returning({ id: orders.id });
  return moved.length > 0;
}
