import type { OrderStatus, PaymentStatus } from "#domain/checkout";
import { orderStatuses } from "#domain/checkout";

/**
 * Who moves an order between payment statuses: the buyer's checkout (first attempt and retries with the
 * same key), the sweeper that settles orders a crash left pending, an admin by hand, the refund flow.
 */
export type OrderActor = "buyer" | "sweeper" | "admin" | "refund";

/**
 * Every allowed move, and who may make it; anything not listed is refused. A confirmed order only moves
 * through refunds, so it can never be confirmed (and delivered, and counted) a second time. A payment
 * that succeeded confirms the order even if a concurrent attempt had just recorded a refusal; an admin
 * cannot confirm a failed order, whose buyer pays by trying the same checkout again.
 */
const transitions: Record<PaymentStatus, Partial<Record<PaymentStatus, readonly OrderActor[]>>> = {
  pending: {
    processing: ["admin"],
    mock_confirmed: ["buyer", "sweeper", "admin"],
    failed: ["buyer", "sweeper", "admin"],
  },
  processing: { mock_confirmed: ["admin"], failed: ["admin"] },
  failed: { mock_confirmed: ["buyer", "sweeper"] },
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
  if (canTransition(from, to, "buyer"))
    return `${sentence} by hand; the buyer pays by placing the order again.`;
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
