import { DAY_MS } from "#domain/dates";
import { feeRateFor } from "#domain/fees";
import {
  accountId,
  applyRate,
  commissionApprovedLines,
  commissionRejectedLines,
  refundLines,
  refundPaidLines,
  releaseLines,
  type SaleItem,
  saleLines,
} from "#domain/ledger";
import { allocateUnits, chargeCents, fromUnits, lineTotal, toUnits } from "#domain/money";
import type { Database, Transaction } from "#server/db/client";
import type { JobDefinition } from "#server/jobs/queue";
import type { Clock } from "#server/lib/clock";
import {
  dueForRelease,
  entryExists,
  feeRulesFor,
  fixItemBooking,
  itemLineSum,
  itemSeller,
  lockItemForRelease,
  openCommissionsOf,
  orderJurisdiction,
  refundedItem,
  saleItems,
  saleOrder,
} from "#server/modules/ledger/repository";
import { post } from "#server/modules/ledger/service";

/** The source keys of each cause, one place, so a replay always finds the entry it booked. */
export const sourceKeys = {
  sale: (orderId: string) => `sale:${orderId}`,
  refund: (refundId: string) => `refund:${refundId}`,
  refundPaid: (refundId: string) => `refund_paid:${refundId}`,
  release: (orderItemId: string) => `release:${orderItemId}`,
  commissionApproved: (commissionId: string) => `commission_approved:${commissionId}`,
  commissionRejected: (commissionId: string) => `commission_rejected:${commissionId}`,
};

const short = (id: string) => id.slice(0, 8).toUpperCase();

/**
 * Books a confirmed order, in its delivery's transaction: fixes each item's platform fee (the rule that
 * applies now), when its net stops waiting for the refund window, and posts the sale. Items whose tax
 * share was not recorded (orders placed before tax was kept per line) get the order's tax split over
 * them by subtotal, so the shares still add up to what was charged.
 */
export async function bookSale(
  tx: Transaction,
  orderId: string,
  now: Date,
  windowDays: number,
): Promise<void> {
  const order = await saleOrder(tx, orderId);
  if (!order) return;
  const items = await saleItems(tx, orderId);
  const sellerIds = [...new Set(items.flatMap((item) => (item.sellerId ? [item.sellerId] : [])))];
  const categories = [...new Set(items.flatMap((item) => (item.category ? [item.category] : [])))];
  const [rules, earned] = await Promise.all([
    feeRulesFor(tx, sellerIds, categories),
    openCommissionsOf(tx, orderId),
  ]);
  const lines = items.map((item) => toUnits(lineTotal(item.price, item.quantity)));
  const recorded = items.map((item) => toUnits(item.tax));
  const orderTax = toUnits(order.tax);
  const taxes = recorded.reduce((a, b) => a + b, 0) === orderTax ? recorded : allocateUnits(orderTax, lines);
  const settlesAt = new Date(now.getTime() + windowDays * DAY_MS);
  const sale: SaleItem[] = [];
  for (const [i, item] of items.entries()) {
    const line = lines[i] ?? 0;
    const tax = taxes[i] ?? 0;
    const commission = earned.find((c) => c.orderItemId === item.id);
    const commissionUnits = commission ? toUnits(commission.amount) : 0;
    const { rate } = feeRateFor(rules, item);
    const fee = Math.min(applyRate(line, rate), line - commissionUnits);
    // A physical item's refund window counts from delivery: its net has no settling date until then
    // (`markDelivered` sets it), so the release leaves it pending.
    const itemSettlesAt = item.shippingState && item.shippingState !== "delivered" ? null : settlesAt;
    await fixItemBooking(tx, item.id, {
      feeRate: rate,
      fee: fromUnits(fee),
      tax: fromUnits(tax),
      settlesAt: itemSettlesAt,
    });
    sale.push({
      orderItemId: item.id,
      sellerId: item.sellerId,
      line,
      tax,
      fee,
      commission: commission ? { resellerId: commission.resellerId, amount: commissionUnits } : null,
    });
  }
  await post(tx, {
    kind: "sale",
    sourceKey: sourceKeys.sale(orderId),
    memo: `Order ${short(orderId)} paid`,
    orderId,
    occurredAt: now,
    lines: saleLines({
      charged: chargeCents(order.totalAmount) * 100,
      jurisdiction: order.taxJurisdiction,
      items: sale,
    }),
  });
}

/**
 * Books an approved refund of one item, in the approval's transaction: `refundedCents` is what the buyer
 * gets back; `commission` is the item's commission as it stood before the refund touched it. Orders
 * confirmed before the ledger existed have no sale to reverse and book nothing.
 */
export async function bookRefund(
  tx: Transaction,
  refund: { id: string; orderId: string; orderItemId: string },
  refundedCents: number,
  commission: { id: string; resellerId: string; amount: string; status: string } | null,
  now: Date,
): Promise<void> {
  if (!(await entryExists(tx, sourceKeys.sale(refund.orderId)))) return;
  const [order, item] = await Promise.all([
    orderJurisdiction(tx, refund.orderId),
    refundedItem(tx, refund.orderItemId),
  ]);
  if (!order || !item) return;
  // A commission an admin rejected before the refund went back to the seller with the net.
  const live = commission && commission.status !== "cancelled" ? commission : null;
  await post(tx, {
    kind: "refund",
    sourceKey: sourceKeys.refund(refund.id),
    memo: `Refund of an item of order ${short(refund.orderId)} approved`,
    orderId: refund.orderId,
    orderItemId: refund.orderItemId,
    refundId: refund.id,
    occurredAt: now,
    lines: refundLines({
      refunded: refundedCents * 100,
      jurisdiction: order.taxJurisdiction,
      item: {
        orderItemId: refund.orderItemId,
        sellerId: item.sellerId,
        line: toUnits(lineTotal(item.price, item.quantity)),
        tax: toUnits(item.tax),
        fee: toUnits(item.fee),
        commission: live ? { resellerId: live.resellerId, amount: toUnits(live.amount) } : null,
      },
      commissionReversed: live?.status === "pending" || live?.status === "held",
      released: await entryExists(tx, sourceKeys.release(refund.orderItemId)),
    }),
  });
}

/** The buyer's refund left us (the provider paid it back, or the operator's transfer was made). */
export async function bookRefundPaid(
  tx: Transaction,
  refund: { refundId: string; orderId: string; amountCents: number },
  now: Date,
): Promise<void> {
  if (!(await entryExists(tx, sourceKeys.refund(refund.refundId)))) return;
  await post(tx, {
    kind: "refund_paid",
    sourceKey: sourceKeys.refundPaid(refund.refundId),
    memo: `Refund for order ${short(refund.orderId)} paid back`,
    orderId: refund.orderId,
    refundId: refund.refundId,
    occurredAt: now,
    lines: refundPaidLines(refund.amountCents * 100),
  });
}

/**
 * Moves every seller net whose refund window has ended from pending to available, a transaction per
 * item. An item with an open refund request stays pending until the request is decided: approved, the
 * refund takes the net back from pending; rejected, the next run releases it (so at the later of the
 * window's end and the decision). Rows are locked with SKIP LOCKED, so an item a refund request or
 * approval holds is left for the next run, and re-read under the lock: a refund that got there first
 * has already taken the net back, or holds it.
 */
export async function releaseDue(db: Database, now: Date, limit = 500): Promise<number> {
  const due = await dueForRelease(db, now, limit);
  let released = 0;
  for (const { id } of due) {
    const booked = await db.transaction(async (tx) => {
      const item = await lockItemForRelease(tx, id);
      if (!item?.sellerId || item.refundStatus !== "none") return false;
      const account = accountId({ kind: "seller_pending", owner: item.sellerId });
      const net = -(await itemLineSum(tx, id, account));
      return post(tx, {
        kind: "release",
        sourceKey: sourceKeys.release(id),
        memo: `Refund window of an item of order ${short(item.orderId)} ended`,
        orderId: item.orderId,
        orderItemId: id,
        occurredAt: now,
        lines: releaseLines(item.sellerId, net, id),
      });
    });
    if (booked) released++;
  }
  return released;
}

/** An approved commission is the reseller's to be paid: booked in the approval's transaction. */
export async function bookCommissionApproved(
  tx: Transaction,
  commission: { id: string; orderId: string; orderItemId: string; resellerId: string; amount: string },
  now: Date,
): Promise<void> {
  if (!(await entryExists(tx, sourceKeys.sale(commission.orderId)))) return;
  await post(tx, {
    kind: "commission_approved",
    sourceKey: sourceKeys.commissionApproved(commission.id),
    memo: `Commission on order ${short(commission.orderId)} approved`,
    orderId: commission.orderId,
    orderItemId: commission.orderItemId,
    commissionId: commission.id,
    occurredAt: now,
    lines: commissionApprovedLines(commission.resellerId, toUnits(commission.amount), commission.orderItemId),
  });
}

/** A held commission an admin rejected goes back to the seller, where the item's net now is. */
export async function bookCommissionRejected(
  tx: Transaction,
  commission: { id: string; orderId: string; orderItemId: string; resellerId: string; amount: string },
  now: Date,
): Promise<void> {
  if (!(await entryExists(tx, sourceKeys.sale(commission.orderId)))) return;
  const sellerId = await itemSeller(tx, commission.orderItemId);
  await post(tx, {
    kind: "commission_rejected",
    sourceKey: sourceKeys.commissionRejected(commission.id),
    memo: `Commission on order ${short(commission.orderId)} rejected`,
    orderId: commission.orderId,
    orderItemId: commission.orderItemId,
    commissionId: commission.id,
    occurredAt: now,
    lines: commissionRejectedLines({
      resellerId: commission.resellerId,
      amount: toUnits(commission.amount),
      sellerId,
      released: await entryExists(tx, sourceKeys.release(commission.orderItemId)),
      orderItemId: commission.orderItemId,
    }),
  });
}

/** The release as a job, every five minutes across all instances. */
export function earningsReleaseJob(db: Database, clock: Clock): JobDefinition {
  return {
    name: "earnings-release",
    cron: "*/5 * * * *",
    retryLimit: 2,
    retryDelaySeconds: 60,
    describe: () => "Make seller earnings past the refund window available",
    async run() {
      await releaseDue(db, clock.now());
    },
  };
}
