import { rateUnits } from "#domain/money";

/**
 * The double-entry ledger's rules, pure: which accounts exist and which lines each cause books. The
 * server writes these lines in the transaction of their cause; every balance the app shows is a sum of
 * them. Amounts are money units (1/10,000 USD, see money.ts), debits positive and credits negative, so
 * the lines of every entry sum to zero.
 */

/**
 * The kinds of ledger account. Liabilities (what is owed to sellers, resellers, tax authorities and
 * buyers) carry credit balances; `clearing` (money held at the payment providers and the bank) a debit one.
 */
export const ledgerAccountKinds = [
  "clearing",
  "platform_fees",
  "platform_sales",
  "rounding",
  "seller_pending",
  "seller_available",
  "reseller_pending",
  "reseller_available",
  "tax",
  "provider_fees",
  "refunds_payable",
  "payouts_in_transit",
] as const;
export type LedgerAccountKind = (typeof ledgerAccountKinds)[number];

/** The causes a journal entry books. */
export const journalEntryKinds = [
  "sale",
  "refund",
  "refund_paid",
  "release",
  "commission_approved",
  "commission_rejected",
  "payout",
  "payout_paid",
  "payout_failed",
] as const;
export type JournalEntryKind = (typeof journalEntryKinds)[number];

export type AccountRef =
  | { kind: Exclude<LedgerAccountKind, "tax" | EarnerAccountKind> }
  | { kind: EarnerAccountKind; owner: string }
  | { kind: "tax"; jurisdiction: string };

type EarnerAccountKind = "seller_pending" | "seller_available" | "reseller_pending" | "reseller_available";

/** An account's id: its kind, and the owner or jurisdiction it belongs to (`seller_pending:<userId>`). */
export function accountId(ref: AccountRef): string {
  if ("owner" in ref) return `${ref.kind}:${ref.owner}`;
  if ("jurisdiction" in ref) return `${ref.kind}:${ref.jurisdiction}`;
  return ref.kind;
}

export type PostingLine = { account: AccountRef; amount: number; orderItemId?: string };

/** True when the lines sum to zero, the one rule every entry keeps (the database checks it again). */
export function balances(lines: readonly PostingLine[]): boolean {
  return lines.reduce((sum, line) => sum + line.amount, 0) === 0;
}

/**
 * `units × rate`, rounded half up, exactly: the rate is a decimal with at most four places (a fee of
 * 12.5% is "0.1250"), and the product is taken in integers so no float ever rounds a cent.
 */
export function applyRate(units: number, rate: string): number {
  const tenThousandths = BigInt(rateUnits(rate));
  const sign = units < 0 ? -1n : 1n;
  const product = BigInt(Math.abs(units)) * tenThousandths;
  return Number((sign * (product + 5_000n)) / 10_000n);
}

/** Who earns an item's net: its seller, or the platform for the few products no seller owns. */
export type Earner = { seller: string | null };

/** One item of a sale, as booked: its subtotal, tax share, platform fee and reseller commission. */
export type SaleItem = {
  orderItemId: string;
  sellerId: string | null;
  line: number;
  tax: number;
  fee: number;
  commission: { resellerId: string; amount: number } | null;
};

/** What the seller keeps from an item: its subtotal less the platform fee and the reseller's commission. */
export function itemNet(item: Pick<SaleItem, "line" | "fee" | "commission">): number {
  return item.line - item.fee - (item.commission?.amount ?? 0);
}

/** Where an item's net waits: the seller's pending balance until the window ends, then available. */
function netAccount(sellerId: string | null, released: boolean): AccountRef {
  if (!sellerId) return { kind: "platform_sales" };
  return { kind: released ? "seller_available" : "seller_pending", owner: sellerId };
}

/**
 * A confirmed order: the money taken (`charged`, whole cents as units) comes into clearing; each item's
 * tax is owed to the buyer's jurisdiction, its fee is the platform's, its commission waits for the
 * reseller and its net for the seller. What the charge differs from the items by (a total held to
 * 1/10,000 USD charged in whole cents) is booked to rounding, so every unit is explained.
 */
export function saleLines(sale: {
  charged: number;
  jurisdiction: string | null;
  items: readonly SaleItem[];
}): PostingLine[] {
  const lines: PostingLine[] = [{ account: { kind: "clearing" }, amount: sale.charged }];
  for (const item of sale.items) {
    const orderItemId = item.orderItemId;
    if (item.tax !== 0) {
      if (!sale.jurisdiction) throw new RangeError("Tax without a jurisdiction");
      lines.push({
        account: { kind: "tax", jurisdiction: sale.jurisdiction },
        amount: -item.tax,
        orderItemId,
      });
    }
    lines.push({ account: { kind: "platform_fees" }, amount: -item.fee, orderItemId });
    if (item.commission) {
      lines.push({
        account: { kind: "reseller_pending", owner: item.commission.resellerId },
        amount: -item.commission.amount,
        orderItemId,
      });
    }
    lines.push({ account: netAccount(item.sellerId, false), amount: -itemNet(item), orderItemId });
  }
  return withRounding(lines);
}

/** Adds the line that makes the entry balance, booked to rounding; no line when nothing is left over. */
function withRounding(lines: PostingLine[]): PostingLine[] {
  const kept = lines.filter((line) => line.amount !== 0);
  const rest = kept.reduce((sum, line) => sum + line.amount, 0);
  return rest === 0 ? kept : [...kept, { account: { kind: "rounding" }, amount: -rest }];
}

/**
 * An approved refund of one item: the buyer is owed `refunded` (whole cents as units) and each part
 * of the sale is taken back from where it now is. The commission comes back from the reseller while
 * it still waits; once approved it stays theirs and the seller's available balance bears it. The
 * seller's net comes back from pending or, once released, from available, which may go below zero if it was already paid out:
 * the next payout recovers it. A commission an admin rejected went back to the seller with the net, so
 * the caller passes the item without it.
 */
export function refundLines(refund: {
  refunded: number;
  jurisdiction: string | null;
  item: SaleItem;
  commissionReversed: boolean;
  released: boolean;
}): PostingLine[] {
  const { item } = refund;
  const orderItemId = item.orderItemId;
  const lines: PostingLine[] = [{ account: { kind: "refunds_payable" }, amount: -refund.refunded }];
  if (item.tax !== 0 && refund.jurisdiction) {
    lines.push({
      account: { kind: "tax", jurisdiction: refund.jurisdiction },
      amount: item.tax,
      orderItemId,
    });
  }
  lines.push({ account: { kind: "platform_fees" }, amount: item.fee, orderItemId });
  const commission = item.commission?.amount ?? 0;
  if (item.commission && refund.commissionReversed) {
    lines.push({
      account: { kind: "reseller_pending", owner: item.commission.resellerId },
      amount: commission,
      orderItemId,
    });
  }
  lines.push({ account: netAccount(item.sellerId, refund.released), amount: itemNet(item), orderItemId });
  if (item.commission && !refund.commissionReversed) {
    // The reseller keeps an approved commission; the seller makes it good from what they can be paid.
    lines.push({ account: netAccount(item.sellerId, true), amount: commission, orderItemId });
  }
  return withRounding(lines);
}

/** The buyer's refund left our provider or bank account. */
export function refundPaidLines(refunded: number): PostingLine[] {
  if (refunded === 0) return [];
  return [
    { account: { kind: "refunds_payable" }, amount: refunded },
    { account: { kind: "clearing" }, amount: -refunded },
  ];
}

/** The refund window of an item ended: the seller's net moves from pending to available. */
export function releaseLines(sellerId: string, net: number, orderItemId: string): PostingLine[] {
  if (net === 0) return [];
  return [
    { account: { kind: "seller_pending", owner: sellerId }, amount: net, orderItemId },
    { account: { kind: "seller_available", owner: sellerId }, amount: -net, orderItemId },
  ];
}

/** A commission past the refund window is the reseller's to be paid. */
export function commissionApprovedLines(
  resellerId: string,
  amount: number,
  orderItemId: string,
): PostingLine[] {
  return [
    { account: { kind: "reseller_pending", owner: resellerId }, amount, orderItemId },
    { account: { kind: "reseller_available", owner: resellerId }, amount: -amount, orderItemId },
  ];
}

/** A held commission an admin rejected goes back to the seller who would have paid it. */
export function commissionRejectedLines(rejected: {
  resellerId: string;
  amount: number;
  sellerId: string | null;
  released: boolean;
  orderItemId: string;
}): PostingLine[] {
  const { orderItemId } = rejected;
  return [
    {
      account: { kind: "reseller_pending", owner: rejected.resellerId },
      amount: rejected.amount,
      orderItemId,
    },
    { account: netAccount(rejected.sellerId, rejected.released), amount: -rejected.amount, orderItemId },
  ];
}

export type Payee = { role: "seller" | "reseller"; owner: string };

function availableAccount(payee: Payee): AccountRef {
  return { kind: payee.role === "seller" ? "seller_available" : "reseller_available", owner: payee.owner };
}

/** An approved payout leaves the payee's available balance and is in transit until the money arrives. */
export function payoutLines(payee: Payee, amount: number): PostingLine[] {
  return [
    { account: availableAccount(payee), amount },
    { account: { kind: "payouts_in_transit" }, amount: -amount },
  ];
}

/** The payout arrived: the money left clearing. */
export function payoutPaidLines(amount: number): PostingLine[] {
  return [
    { account: { kind: "payouts_in_transit" }, amount },
    { account: { kind: "clearing" }, amount: -amount },
  ];
}

/** The payout failed: the money goes back to the payee's available balance. */
export function payoutFailedLines(payee: Payee, amount: number): PostingLine[] {
  return [
    { account: { kind: "payouts_in_transit" }, amount },
    { account: availableAccount(payee), amount: -amount },
  ];
}
