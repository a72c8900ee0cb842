import { hasRole } from "#domain/accounts";
import { confirmedStatuses } from "#domain/checkout";
import {
  nextRefundStatus,
  openRefundStatuses,
  REFUND_MESSAGE_RATE_MAX,
  REFUND_MESSAGE_WINDOW_MS,
  type RefundActor,
  type RefundMessageAuthor,
  type RefundStatus,
  type RefundThread,
  sellerDeadline,
} from "#domain/refunds";
import { itemRefundableUntil } from "#domain/shipping";
import type { UserRow } from "#server/auth/guards";
import type { Database, Transaction } from "#server/db/client";
import { AppError, Conflict, NotFound } from "#server/errors";
import type { JobQueue } from "#server/jobs/queue";
import { recordAudit } from "#server/lib/audit";
import {
  refundEscalatedNotice,
  refundMessageNotice,
  refundOutcomeNotice,
  refundRequestedNotice,
} from "#server/mail/refund-notices";
import { bookRefund } from "#server/modules/ledger/bookings";
import { revokeLicensesForItem } from "#server/modules/licenses/service";
import { notify, notifyAdmins } from "#server/modules/notifications/service";
import { cancelCommissionForItem } from "#server/modules/referrals/service";
import { createPayout } from "#server/modules/refunds/payouts";
import {
  findOrderItem,
  findRefundRequest,
  insertRefundMessage,
  insertRefundRequestOnce,
  itemRefundStatuses,
  listRefundMessages,
  lockBuyersOrderItem,
  lockOrderPaymentStatus,
  lockRefundRequest,
  markItemRefunded,
  messagesWrittenSince,
  type RefundRow,
  setOrderPaymentStatus,
  updateRefundRequest,
} from "#server/modules/refunds/repository";
import { withdrawReviewsOfRefundedItem } from "#server/modules/reviews/service";
import { licensesRevokedEvents, refundEvent } from "#server/modules/seller-webhooks/events";
import { assertTransition } from "#server/modules/settlement/service";
import { subscriptionItemRefunded } from "#server/modules/subscriptions/service";

const snapshot = (row: RefundRow) => ({
  status: row.status,
  sellerNote: row.sellerNote,
  platformNote: row.platformNote,
  resolvedAt: row.resolvedAt,
});

/**
 * The buyer asks for an item's refund: only on their own confirmed order, within the refund window,
 * once per item. The item's seller (recorded at purchase) has 3 business days to answer.
 */
export async function requestRefund(
  db: Database,
  jobs: JobQueue,
  buyer: UserRow,
  ids: { orderId: string; itemId: string },
  reason: string,
  windowDays: number,
  now = new Date(),
) {
  return db.transaction(async (tx) => {
    const found = await lockBuyersOrderItem(tx, ids, buyer.id);
    if (!found) throw new NotFound("Order item not found.", "ORDER_ITEM_NOT_FOUND");
    const { item, order } = found;
    if (!confirmedStatuses.includes(order.paymentStatus as never)) {
      throw new Conflict("Only confirmed orders can be refunded.", "ORDER_NOT_CONFIRMED");
    }
    if (item.refundStatus === "refunded")
      throw new Conflict("This item has already been refunded.", "ALREADY_REFUNDED");
    // A physical item's window counts from its delivery, and stays open while it is on its way.
    const until = itemRefundableUntil(item, order.createdAt, windowDays);
    if (until && now.getTime() > until.getTime()) {
      throw new Conflict(
        item.deliveredAt
          ? `Refunds can be requested within ${windowDays} days of delivery; this item was delivered earlier.`
          : `Refunds can be requested within ${windowDays} days of the order; this order is older.`,
        "REFUND_WINDOW_CLOSED",
      );
    }
    const row = await insertRefundRequestOnce(tx, {
      orderItemId: item.id,
      orderId: order.id,
      buyerId: buyer.id,
      sellerId: item.sellerId,
      reason,
      status: "requested",
      sellerDueAt: sellerDeadline(now),
      createdAt: now,
      updatedAt: now,
    });
    if (!row) throw new Conflict("A refund has already been requested for this item.", "REFUND_EXISTS");
    await recordAudit(tx, buyer, {
      action: "create",
      entityType: "refund",
      entityId: row.id,
      entityLabel: item.productName,
      before: null,
      after: { ...snapshot(row), reason, orderItemId: item.id },
    });
    // The item's seller answers; for an item Stackbay sells itself, the admins do.
    const notice = refundRequestedNotice(
      item.productName,
      reason,
      row.sellerDueAt,
      row.sellerId ? "seller" : "admin",
    );
    if (row.sellerId) {
      await notify(jobs, tx, row.sellerId, notice, now);
      await refundEvent(tx, "refund.requested", row, now);
    } else await notifyAdmins(jobs, tx, notice, { now });
    return { refund: row, item };
  });
}

/**
 * Who `me` is for this request. The buyer escalates; the item's seller answers first; admins decide
 * escalated requests, and answer as the seller for items Stackbay sells itself (no seller recorded).
 */
function actorFor(me: UserRow, row: RefundRow): RefundActor | null {
  if (me.id === row.buyerId) return "buyer";
  if (row.sellerId && me.id === row.sellerId) return "seller";
  if (hasRole(me, "admin")) return row.sellerId === null && row.status === "requested" ? "seller" : "admin";
  return null;
}

/**
 * Applies a decision; an approval refunds the item, revokes its licenses, cancels its commission and
 * records how the money goes back (a provider refund is queued on `jobs` in the same transaction).
 */
export async function decideRefund(
  db: Database,
  jobs: JobQueue,
  me: UserRow,
  id: string,
  decision: "approve" | "reject" | "escalate",
  note: string | undefined,
  now = new Date(),
) {
  return db.transaction(async (tx) => {
    const row = await lockRefundRequest(tx, id);
    const actor = row ? actorFor(me, row) : null;
    // Someone with no part in the request learns nothing about it.
    if (!row || !actor) throw new NotFound("Refund request not found.", "REFUND_NOT_FOUND");
    const next = nextRefundStatus(
      { status: row.status as RefundStatus, sellerDueAt: row.sellerDueAt },
      actor,
      decision,
      now,
    );
    if ("refused" in next) throw new Conflict(next.refused, "REFUND_STEP_NOT_ALLOWED");
    const final = next.status === "approved" || next.status === "rejected";
    const updated = await updateRefundRequest(tx, id, {
      status: next.status,
      ...(actor === "seller" && note ? { sellerNote: note } : {}),
      ...(actor === "admin" && note ? { platformNote: note } : {}),
      updatedAt: now,
      resolvedAt: final ? now : null,
    });
    if (!updated) throw new NotFound("Refund request not found.", "REFUND_NOT_FOUND");
    const item = await findOrderItem(tx, row.orderItemId);
    await recordAudit(tx, me, {
      action: "update",
      entityType: "refund",
      entityId: row.id,
      entityLabel: item?.productName ?? null,
      before: snapshot(row),
      after: snapshot(updated),
    });
    if (next.status === "approved") await refundItem(tx, jobs, updated, now);
    const productName = item?.productName ?? "";
    if (next.status === "escalated")
      await notifyAdmins(jobs, tx, refundEscalatedNotice(productName, row.reason), { except: me.id, now });
    if (next.status === "approved" || next.status === "seller_rejected" || next.status === "rejected") {
      const decidedNote = next.status === "seller_rejected" ? updated.sellerNote : updated.platformNote;
      await notify(
        jobs,
        tx,
        row.buyerId,
        refundOutcomeNotice(next.status, productName, next.status === "approved" ? null : decidedNote),
        now,
      );
    }
    return { refund: updated, actor, productName };
  });
}

/** The approved refund's effects on the item, its licenses, its commission, the order's status and the money. */
async function refundItem(tx: Transaction, jobs: JobQueue, row: RefundRow, now: Date) {
  // The order row first: two items of one order approved at once take turns here, so the second reads
  // the first's item as refunded (read before the lock, each saw the other's as not, and the order
  // ended partially refunded).
  const paymentStatus = await lockOrderPaymentStatus(tx, row.orderId);
  if (paymentStatus === undefined) throw new NotFound("Order not found.", "ORDER_NOT_FOUND");
  await markItemRefunded(tx, row.orderItemId);
  await withdrawReviewsOfRefundedItem(tx, row.orderItemId);
  await revokeLicensesForItem(tx, row.orderItemId, now);
  await licensesRevokedEvents(tx, { orderItemId: row.orderItemId, at: now }, now, "refunded");
  // A subscription's start, renewal or change refunded takes back the service it paid for.
  await subscriptionItemRefunded(tx, row.orderItemId, now);
  const commission = await cancelCommissionForItem(tx, row.orderItemId, now);
  const statuses = await itemRefundStatuses(tx, row.orderId);
  const all = statuses.every((status) => status === "refunded");
  const next = all ? "refunded" : "partially_refunded";
  assertTransition(paymentStatus, next, "refund");
  await setOrderPaymentStatus(tx, row.orderId, next, now);
  const payout = await createPayout(jobs, tx, row, all, now);
  await bookRefund(tx, row, payout.amountCents, commission, now);
  await refundEvent(tx, "refund.approved", row, now);
}

/**
 * Who `me` is in a refund request's conversation: its buyer, the item's seller, or an admin; null for
 * anyone else, who is answered as if the request did not exist.
 */
function partyOf(me: UserRow, row: RefundRow): RefundMessageAuthor | null {
  if (me.id === row.buyerId) return "buyer";
  if (row.sellerId && me.id === row.sellerId) return "seller";
  if (hasRole(me, "admin")) return "admin";
  return null;
}

const refundNotFound = () => new NotFound("Refund request not found.", "REFUND_NOT_FOUND");

/** A refund request's conversation, for its buyer, its seller and admins. */
export async function refundThread(db: Database, me: UserRow, id: string): Promise<RefundThread> {
  const row = await findRefundRequest(db, id);
  if (!row || !partyOf(me, row)) throw refundNotFound();
  const messages = await listRefundMessages(db, id);
  return {
    items: messages.map((message) => {
      const author = message.authorRole as RefundMessageAuthor;
      return {
        id: message.id,
        author,
        // Admins speak for Stackbay; the buyer and seller by first name, as on questions.
        authorName:
          author === "admin"
            ? "Stackbay"
            : message.firstName || (author === "buyer" ? "The buyer" : "The seller"),
        mine: message.authorId === me.id,
        body: message.body,
        createdAt: message.createdAt.toISOString(),
      };
    }),
  };
}

/**
 * A party writes on an open refund request, within the per-person limit; the other parties are
 * notified in the same transaction (the seller's part goes to admins for an item Stackbay sells).
 */
export async function postRefundMessage(
  db: Database,
  jobs: JobQueue,
  me: UserRow,
  id: string,
  body: string,
  now = new Date(),
): Promise<RefundThread> {
  await db.transaction(async (tx) => {
    const row = await lockRefundRequest(tx, id);
    const author = row ? partyOf(me, row) : null;
    if (!row || !author) throw refundNotFound();
    if (!(openRefundStatuses as readonly string[]).includes(row.status))
      throw new Conflict("This refund request is closed: no more messages can be added.", "REFUND_CLOSED");
    const recent = await messagesWrittenSince(tx, me.id, new Date(now.getTime() - REFUND_MESSAGE_WINDOW_MS));
    if (recent >= REFUND_MESSAGE_RATE_MAX)
      throw new AppError(
        429,
        "REFUND_MESSAGE_LIMIT",
        `You can write up to ${REFUND_MESSAGE_RATE_MAX} messages in ${REFUND_MESSAGE_WINDOW_MS / 60_000} minutes. Please try again later.`,
      );
    await insertRefundMessage(tx, {
      refundId: id,
      authorId: me.id,
      authorRole: author,
      body,
      createdAt: now,
    });
    const item = await findOrderItem(tx, row.orderItemId);
    const product = item?.productName ?? "your item";
    if (author !== "buyer")
      await notify(jobs, tx, row.buyerId, refundMessageNotice(product, author, body, "buyer"), now);
    if (author !== "seller") {
      if (row.sellerId)
        await notify(jobs, tx, row.sellerId, refundMessageNotice(product, author, body, "seller"), now);
      else
        await notifyAdmins(jobs, tx, refundMessageNotice(product, author, body, "admin"), {
          except: me.id,
          now,
        });
    }
    // Admins follow what is said on a request they are deciding.
    if (author !== "admin" && row.sellerId && row.status === "escalated")
      await notifyAdmins(jobs, tx, refundMessageNotice(product, author, body, "admin"), { now });
  });
  return refundThread(db, me, id);
}
