import type { OrderStatus, PaymentStatus } from "#domain/checkout";
import { orderStatuses, paymentStatuses } from "#domain/checkout";

/**
 * Who moves an order between payment statuses: the payment provider's verified answer (webhook, return
 * page, reconciliation), the buyer trying a failed payment again or cancelling one that awaits payment, an admin by hand, the refund flow,
 * the bank-transfer rules (an admin's recorded transfers adding up to the amount due, or the due
 * date passing unpaid), and checkout itself for an order with nothing to pay (free trials only).
 */
export type OrderActor = "provider" | "buyer" | "admin" | "refund" | "transfer" | "nothing_due";

/**
 * Every allowed move, and who may make it; anything not listed is refused. Only the provider confirms
 * an order for money taken. A confirmed order only moves through refunds, so it can never be confirmed
 * (and delivered, and counted) a second time, and a late failure cannot undo it. A payment the provider
 * says succeeded confirms the order even if it had been marked failed (a late "paid" after an expiry);
 * an admin cannot confirm a failed order, whose buyer pays by trying again.
 *
 * A bank-transfer order waits in processing for its money: recorded transfers that cover it confirm
 * it, its due date passing unpaid fails it, and money that arrives after that still confirms it (as a
 * provider's late "paid" does). Its buyer asks for it again by moving it back to processing.
 */
const transitions: Record<PaymentStatus, Partial<Record<PaymentStatus, readonly OrderActor[]>>> = {
  pending: {
    processing: ["admin"],
    mock_confirmed: ["provider", "admin", "nothing_due"],
    failed: ["provider", "admin", "buyer"],
  },
  processing: { mock_confirmed: ["admin", "transfer"], failed: ["admin", "transfer", "buyer"] },
  failed: { mock_confirmed: ["provider", "transfer"], pending: ["buyer"], processing: ["buyer"] },
  mock_confirmed: { partially_refunded: ["refund"], refunded: ["refund"] },
  partially_refunded: { refunded: ["refund"] },
  refunded: {},
};

/** The spec's names of the stored statuses ('mock_confirmed' reads 'Confirmed'). */
export const paymentStatusNames: Record<PaymentStatus, string> = {
  pending: "Pending",
  processing: "Processing",
  failed: "Failed",
  mock_confirmed: "Confirmed",
  partially_refunded: "Partially refunded",
  refunded: "Refunded",
};

/** Statuses that mean the buyer paid: the paid flag follows the status, it is never set on its own. */
export function isPaidStatus(status: PaymentStatus): boolean {
  return status === "mock_confirmed" || status === "partially_refunded" || status === "refunded";
}

export function canTransition(from: PaymentStatus, to: PaymentStatus, actor: OrderActor): boolean {
  return transitions[from][to]?.includes(actor) ?? false;
}

const article = (name: string) => (/^[aeiou]/i.test(name) ? "An" : "A");

/**
 * Why `actor` may not move an order from `from` to `to`, or null when the move is allowed. Staying in
 * the same status is not a move and is always allowed (a second partial refund, an unchanged select).
 */
export function transitionRefusal(from: PaymentStatus, to: PaymentStatus, actor: OrderActor): string | null {
  if (from === to || canTransition(from, to, actor)) return null;
  const fromName = paymentStatusNames[from].toLowerCase();
  const sentence = `${article(fromName)} ${fromName} order cannot be set to ${paymentStatusNames[to]}`;
  if (canTransition(from, to, "refund")) return `${sentence} by hand; only an approved refund does that.`;
  if (canTransition(from, to, "provider"))
    return `${sentence} by hand; only a payment confirmed by the payment provider does that.`;
  return `${sentence}.`;
}

/** The statuses an order may be in for `actor` to move it to `to`: the guard of a conditional update. */
export function sourcesOf(to: PaymentStatus, actor: OrderActor): PaymentStatus[] {
  return (Object.keys(transitions) as PaymentStatus[]).filter((from) => canTransition(from, to, actor));
}

/** What an admin may pick for an order in `from`: its own status first, then the allowed moves. */
export function adminChoices(from: PaymentStatus): OrderStatus[] {
  const moves = orderStatuses.filter((to) => canTransition(from, to, "admin"));
  return moves.length === 0 ? [] : [...orderStatuses.filter((s) => s === from), ...moves];
}

/**
 * Why an admin has nothing to pick for an order (`adminChoices` is empty), said of the order as it is:
 * a paid order changes only through refunds (which need not have happened), a failed one when its buyer
 * pays again, one its buyer cancelled (`cancelledAt`) not at all.
 */
export function fixedStatusReason(status: PaymentStatus, cancelledAt: string | null): string {
  if (status === "failed" && cancelledAt) return "Cancelled by the buyer";
  if (status === "mock_confirmed") return "Paid; changes only through a refund";
  if (status === "partially_refunded") return "Partly refunded; changes only through a refund";
  if (paymentStatuses.some((to) => canTransition(status, to, "buyer")))
    return "Confirmed when the buyer pays again";
  return "Final";
}
