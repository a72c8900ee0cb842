import { randomBytes } from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import { generateLicenseKey, LICENSED_CATEGORIES } from "#domain/licenses";
import type { Transaction } from "#server/db/client";
import { licenses } from "#server/db/schema/after-sale";
import { orderItems, orders } from "#server/db/schema/orders";

/** A clash needs two equal 79-bit keys; a run of clashes means something else is wrong, so stop. */
const MAX_KEY_ATTEMPTS = 5;

function oneYearAfter(date: Date): Date {
  const next = new Date(date);
  next.setUTCFullYear(next.getUTCFullYear() + 1);
  return next;
}

/**
 * Issues one license key per unit of each licensed item of a just-confirmed order. Items that already
 * have keys are skipped, so confirming the same order twice (a refused payment retried) issues once.
 */
export async function issueLicenses(tx: Transaction, orderId: string, now: Date): Promise<void> {
  const [order] = await tx.select({ userId: orders.userId }).from(orders).where(eq(orders.id, orderId));
  if (!order) throw new Error(`order ${orderId} not found while issuing licenses`);
  const items = await tx
    .select()
    .from(orderItems)
    .where(and(eq(orderItems.orderId, orderId), inArray(orderItems.category, [...LICENSED_CATEGORIES])));
  if (items.length === 0) return;
  const issued = new Set(
    (
      await tx
        .selectDistinct({ orderItemId: licenses.orderItemId })
        .from(licenses)
        .where(eq(licenses.orderId, orderId))
    ).map((row) => row.orderItemId),
  );

  for (const item of items) {
    if (issued.has(item.id)) continue;
    const license = {
      orderItemId: item.id,
      orderId,
      userId: order.userId,
      productId: item.productId,
      productName: item.productName,
      status: "active",
      issuedAt: now,
      renewsAt: item.category === "saas" ? oneYearAfter(now) : null,
    };
    // A key already taken is skipped by the insert and drawn again, never dropped silently.
    let missing = item.quantity;
    for (let attempt = 1; missing > 0; attempt++) {
      if (attempt > MAX_KEY_ATTEMPTS) throw new Error(`could not draw unique license keys for ${item.id}`);
      const inserted = await tx
        .insert(licenses)
        .values(Array.from({ length: missing }, () => ({ ...license, key: generateLicenseKey(randomBytes) })))
        .onConflictDoNothing({ target: licenses.key })
        .returning({ id: licenses.id });
      missing -= inserted.length;
    }
  }
}

/** Revokes every active license of a refunded order item; answers how many were revoked. */
export async function revokeLicensesForItem(
  tx: Transaction,
  orderItemId: string,
  now: Date,
): Promise<number> {
  const revoked = await tx
    .update(licenses)
    .set({ status: "revoked", revokedAt: now })
    .where(and(eq(licenses.orderItemId, orderItemId), eq(licenses.status, "active")))
    .returning({ id: licenses.id });
  return revoked.length;
}
