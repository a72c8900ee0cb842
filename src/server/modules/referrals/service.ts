import type { Transaction } from "#server/db/client";

/** The reseller whose link the buyer followed last, and when. */
export type Referral = { resellerId: string; clickedAt: Date };

/** Records a pending commission for each resellable item of a confirmed order the referral earns. */
export async function recordCommissions(
  _tx: Transaction,
  _orderId: string,
  _buyerId: string,
  _referral: Referral | null,
  _now: Date,
): Promise<void> {}

/** Cancels the commission on a refunded order item, if it has one. */
export async function cancelCommissionForItem(
  _tx: Transaction,
  _orderItemId: string,
  _now: Date,
): Promise<void> {}
