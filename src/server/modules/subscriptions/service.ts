import { usagePeriodAt, usageSummary } from "#domain/metering";
import { computeTotals, lineTotal } from "#domain/money";
import { methodLabel } from "#domain/payment-methods";
import type { Subscription } from "#domain/subscription-schemas";
import {
  type Anchored,
  addIntervals,
  type BillingInterval,
  boundary,
  recurringIntervalOf,
  type SubscriptionStatus,
  subscriptionStatusAt,
  trialEndsAt,
  unitPriceDue,
  unpaidRenewalEndsAt,
} from "#domain/subscriptions";
import type { Database, Db, Transaction } from "#server/db/client";
import { Conflict, NotFound } from "#server/errors";
import type { Mailer } from "#server/mail/mailer";
import { finalUsageReminderMail, renewalReminderMail, sellerLeftMail } from "#server/mail/renewal-mail";
import { matchLicensesToSeats } from "#server/modules/licenses/service";
import { licensesRevokedEvents, subscriptionEvents } from "#server/modules/seller-webhooks/events";
import {
  adoptAnnouncedPrice,
  applyChangeTerms,
  type ChangeRow,
  cancelUnpaidOrders,
  cancelWaitingChanges,
  changeOfOrder,
  closeUnratedPeriodsOfUser,
  effectiveMethodsOf,
  endAllOfUser,
  endSubscription,
  insertSubscriptions,
  insertTrial,
  itemStartedSubscription,
  licenseKeysOf,
  originItem,
  originOrder,
  periodUsage,
  recordPaidPeriod,
  recurringItemsOf,
  renewalOfOrder,
  reopenPeriodsOf,
  revertChange,
  reviveUnpaidSubscription,
  revokeLicensesOf,
  type SubscriptionRow,
  scheduledChangeAt,
  setAnchor,
  setCancelAtPeriodEnd,
  setLicensesRenewAt,
  stopRenewalsOfSeller,
  subscriptionOfPaidItem,
  subscriptionOfUser,
  subscriptionRowsById,
  subscriptionsOfUser,
  unpaidFinalBillsOfUser,
  unpaidRenewalsOf,
  waitingChangesOf,
} from "#server/modules/subscriptions/repository";

/**
 * In a paid order's delivery (decision 0027): when the order pays a renewal or a change of plan or seats,
 * puts what it paid for in effect and answers the order item that started the subscription; otherwise
 * null. A repeated delivery changes nothing.
 * - A renewal extends its subscription by the period it paid for (counted from the anchor, so paying late
 *   gives no free days) and its licences with it, on the terms of the change scheduled for that period
 *   if one was (a new interval counts its periods from the renewal's due date).
 * - A change that waited for its payment takes effect now, if its subscription is still in the period it
 *   was priced in; monthly to yearly starts the yearly period it charged for, from the moment priced.
 * - A renewal paid after its subscription ended unpaid (a provider's page opened before the end) brings
 *   the subscription back, keys and all: the money was taken for that period.
 * `trialStartedAt` is set when the subscription began with a free trial: its renewals are judged for a
 * reseller's commission by the link's attribution then, since the trial's order charged (and earned)
 * nothing.
 */
export async function renewalPaid(
  tx: Transaction,
  orderId: string,
  now: Date,
): Promise<{ originItemId: string; trialStartedAt: Date | null } | null> {
  const renewal = await renewalOfOrder(tx, orderId);
  if (!renewal) return changePaid(tx, orderId, now);
  const { subscription } = renewal;
  const paid = {
    originItemId: subscription.orderItemId,
    trialStartedAt: subscription.trialEndsAt ? subscription.createdAt : null,
  };
  // A final bill pays for use already served (decision 0029): it starts no period and revives nothing.
  if (renewal.renewal.final) return paid;
  const periodsPaid = renewal.renewal.periodIndex + 1;
  if (subscription.periodsPaid >= periodsPaid) return paid;
  if (subscription.endedAt) {
    // Paid after it ended unpaid (on a provider's page opened before the end): the money was taken, so
    // the period it paid for is served, and the subscription comes back with its keys.
    const late =
      subscription.endReason === "unpaid" && renewal.renewal.periodIndex === subscription.periodsPaid;
    if (!late || !(await reviveUnpaidSubscription(tx, subscription, now))) return paid;
  }
  let anchored: Anchored = subscription;
  const change = await scheduledChangeAt(tx, subscription.id, renewal.renewal.dueAt);
  if (change) {
    await applyChangeTerms(tx, change, now);
    if (change.toInterval !== subscription.interval) {
      anchored = {
        anchor: renewal.renewal.dueAt,
        interval: change.toInterval,
        anchorPeriod: periodsPaid - 1,
      };
      await setAnchor(tx, subscription.id, anchored.anchor, anchored.anchorPeriod);
    }
  }
  const paidThrough = boundary(anchored, periodsPaid);
  if (await recordPaidPeriod(tx, subscription.id, periodsPaid, paidThrough, now)) {
    await subscriptionEvents(tx, [subscription.id], "subscription.renewed", now);
    await setLicensesRenewAt(tx, subscription.orderItemId, paidThrough);
    await adoptAnnouncedPrice(tx, subscription.id, renewal.renewal.dueAt, now);
    // One key per seat: the seats a scheduled change set, or those a revival brought back.
    if (change || subscription.endedAt)
      await matchLicensesToSeats(
        tx,
        subscription.orderItemId,
        change?.toQuantity ?? subscription.quantity,
        paidThrough,
        now,
      );
  }
  return paid;
}

/** `renewalPaid` for an order that pays a change of plan or seats; null when the order pays none. */
async function changePaid(tx: Transaction, orderId: string, now: Date) {
  const found = await changeOfOrder(tx, orderId);
  if (!found) return null;
  const { change, subscription } = found;
  const stillDue =
    change.status === "awaiting_payment" &&
    !subscription.endedAt &&
    subscription.periodsPaid === change.periodsPaid;
  if (stillDue) await applyChange(tx, change, now);
  return { originItemId: subscription.orderItemId, trialStartedAt: null };
}

/**
 * Puts a change that takes effect now in effect: its terms, and for `restart` (monthly to yearly) a
 * yearly period from the moment it was priced, paid for by the change, with the licences following.
 */
export async function applyChange(tx: Transaction, change: ChangeRow, now: Date) {
  if (change.kind === "restart") {
    const paidThrough = addIntervals(change.pricedAt, change.toInterval, 1);
    await applyChangeTerms(tx, change, now, {
      anchor: change.pricedAt,
      anchorPeriod: change.periodsPaid,
      periodsPaid: change.periodsPaid + 1,
      paidThrough,
    });
  } else await applyChangeTerms(tx, change, now);
  await keysFollowSeats(tx, change.subscriptionId, now);
}

/** One active licence key per seat of a subscription whose seats changed, renewing with it. */
async function keysFollowSeats(tx: Transaction, subscriptionId: string, now: Date) {
  const [subscription] = await subscriptionRowsById(tx, [subscriptionId]);
  if (!subscription) return;
  await setLicensesRenewAt(tx, subscription.orderItemId, subscription.paidThrough);
  await matchLicensesToSeats(
    tx,
    subscription.orderItemId,
    subscription.quantity,
    subscription.paidThrough,
    now,
  );
}

/**
 * In a paid order's delivery, after its licences are issued: starts a subscription for each recurring
 * item, on its plan, at the price per unit it renews at, with the cart's quantity as its seats.
 * - Bought outright, it is anchored at `now` and paid for its first period.
 * - Bought with a free trial (the line charged nothing), it is trialing: no period is paid, and its first
 *   one starts when the trial ends (`trialEndsAt`), invoiced by the renewal job like any renewal. A buyer
 *   gets one trial per product, and a card one per product (unique indexes; the card's fingerprint is
 *   kept with the trial): a second one, which checkout refuses unless two orders raced, starts with its
 *   first period due at once instead.
 * It renews on the saved method chosen at checkout, if one was (else on the buyer's default).
 * Its licences renew when the paid period (or the trial) ends. An item that started one already keeps it.
 */
export async function startSubscriptions(
  tx: Transaction,
  orderId: string,
  userId: string,
  now: Date,
): Promise<void> {
  for (const item of await recurringItemsOf(tx, orderId)) {
    const interval = recurringIntervalOf(item.pricingUnit);
    if (!interval) continue;
    const terms = {
      userId,
      productId: item.productId,
      orderItemId: item.id,
      orderId,
      planId: item.planId,
      interval,
      unitPrice: item.recurringPrice ?? item.price,
      quantity: item.quantity,
      paymentMethodId: item.savedMethodId,
      meterUnit: item.meterUnit,
      usageTiers: item.usageTiers,
      createdAt: now,
      updatedAt: now,
    };
    let paidThrough = addIntervals(now, interval, 1);
    if (item.trialDays > 0) {
      const ends = trialEndsAt(now, item.trialDays);
      const trial = {
        ...terms,
        trialEndsAt: ends,
        trialFingerprint: item.fingerprint,
        anchor: ends,
        periodsPaid: 0,
        paidThrough: ends,
      };
      if (await insertTrial(tx, trial)) paidThrough = ends;
      else if (await itemStartedSubscription(tx, item.id)) continue;
      else {
        paidThrough = now;
        await insertSubscriptions(tx, [{ ...terms, anchor: now, periodsPaid: 0, paidThrough }]);
      }
    } else {
      await insertSubscriptions(tx, [{ ...terms, anchor: now, periodsPaid: 1, paidThrough }]);
    }
    await setLicensesRenewAt(tx, item.id, paidThrough);
  }
}

/** How a subscription reads to its buyer at `now` (see `subscriptionStatuses`). */
export function statusOf(
  row: Pick<
    SubscriptionRow,
    "endedAt" | "cancelAtPeriodEnd" | "paidThrough" | "periodsPaid" | "trialEndsAt" | "meterUnit"
  >,
  now: Date,
): SubscriptionStatus {
  return subscriptionStatusAt(row, now);
}

type Listed = Awaited<ReturnType<typeof subscriptionsOfUser>>[number];

async function answersOf(db: Database, rows: Listed[], now: Date): Promise<Subscription[]> {
  const ids = rows.map((row) => row.subscription.id);
  const metered = rows
    .filter((row) => row.subscription.meterUnit && row.subscription.usageTiers)
    .map((row) => ({
      subscriptionId: row.subscription.id,
      periodIndex: usagePeriodAt(row.subscription, row.subscription.endedAt ?? now).index,
    }));
  const [keys, due, waiting, methods, used] = await Promise.all([
    licenseKeysOf(
      db,
      rows.map((row) => row.subscription.orderItemId),
    ),
    unpaidRenewalsOf(db, ids),
    waitingChangesOf(db, ids),
    effectiveMethodsOf(db, ids),
    periodUsage(db, metered),
  ]);
  return rows.map(({ subscription: s, productName, imageUrl, vendor, taxRate, planName }) => {
    const status = statusOf(s, now);
    const renewal = due.get(s.id) ?? null;
    const change = status === "ended" ? null : (waiting.get(s.id) ?? null);
    // A change scheduled for the period's end sets what the next renewal costs.
    const scheduled = change?.status === "scheduled" ? change : null;
    const nextPrice = scheduled?.toUnitPrice ?? unitPriceDue(s, s.paidThrough);
    const nextSeats = scheduled?.toQuantity ?? s.quantity;
    const nextTotal =
      status === "active" || status === "past_due" || status === "trialing"
        ? (renewal?.total ?? computeTotals([{ price: nextPrice, quantity: nextSeats }], taxRate).total)
        : null;
    const priceChange =
      s.nextUnitPrice !== null && s.priceChangeAt !== null && status !== "ended"
        ? { unitPrice: s.nextUnitPrice, from: s.priceChangeAt.toISOString() }
        : null;
    const endsAt =
      status === "ended"
        ? (s.endedAt ?? s.paidThrough)
        : status === "cancelling"
          ? s.paidThrough
          : status === "past_due"
            ? unpaidRenewalEndsAt(s.paidThrough)
            : null;
    const method = status === "ended" ? null : (methods.get(s.id) ?? null);
    return {
      id: s.id,
      productId: s.productId,
      productName,
      imageUrl,
      vendor,
      planName,
      planId: s.planId,
      interval: s.interval as BillingInterval,
      unitPrice: s.unitPrice,
      quantity: s.quantity,
      nextTotal,
      priceChange,
      status,
      startedAt: s.createdAt.toISOString(),
      trialEndsAt: s.trialEndsAt?.toISOString() ?? null,
      paidThrough: s.paidThrough.toISOString(),
      anchor: s.anchor.toISOString(),
      anchorPeriod: s.anchorPeriod,
      pendingChange:
        change && (change.status === "scheduled" || change.status === "awaiting_payment")
          ? {
              status: change.status,
              planName: change.planName,
              interval: change.toInterval,
              unitPrice: change.toUnitPrice,
              quantity: change.toQuantity,
              perSeat: change.perSeat,
              effectiveAt: change.effectiveAt.toISOString(),
              orderId: change.orderId,
            }
          : null,
      taxRate,
      endsAt: endsAt?.toISOString() ?? null,
      endReason: s.endReason ?? (status === "ended" ? "cancelled" : null),
      due: renewal
        ? { orderId: renewal.orderId, total: renewal.total, dueAt: renewal.dueAt.toISOString() }
        : null,
      paymentMethod: method
        ? {
            id: method.id,
            kind: method.kind,
            label: methodLabel(method),
            chosen: s.paymentMethodId === method.id,
            declined: method.declinedAt !== null,
          }
        : null,
      orderId: s.orderId,
      licenseKeys: keys.get(s.orderItemId) ?? [],
      usage:
        s.meterUnit && s.usageTiers
          ? usageSummary(
              {
                unit: s.meterUnit,
                tiers: s.usageTiers,
                fee: lineTotal(s.unitPrice, s.quantity),
                cap: s.spendingCap,
              },
              usagePeriodAt(s, s.endedAt ?? now),
              used.get(`${s.id}:${usagePeriodAt(s, s.endedAt ?? now).index}`) ?? {
                quantity: 0,
                alertsSent: 0,
              },
            )
          : null,
    };
  });
}

/** The buyer's renewal desk: every subscription they hold, newest first. */
export async function subscriptionsOf(db: Database, userId: string, now: Date): Promise<Subscription[]> {
  return answersOf(db, await subscriptionsOfUser(db, userId), now);
}

export async function subscriptionOf(
  db: Database,
  userId: string,
  id: string,
  now: Date,
): Promise<Subscription> {
  const row = await subscriptionOfUser(db, userId, id);
  // Someone else's subscription is as absent as one that does not exist.
  if (!row) throw new NotFound("Subscription not found.", "SUBSCRIPTION_NOT_FOUND");
  const [answer] = await answersOf(db, [row], now);
  return answer as Subscription;
}

/**
 * Cancels at the period's end (`cancel`), or undoes that before the end comes: the buyer keeps what
 * they paid for either way, and nothing is refunded. A past-due subscription's paid period is over, so
 * cancelling it ends it at once. An ended subscription changes no more.
 */
export async function setRenewal(
  db: Database,
  userId: string,
  id: string,
  cancel: boolean,
  now: Date,
): Promise<Subscription> {
  const current = await subscriptionOf(db, userId, id, now);
  if (current.status === "ended")
    throw new Conflict("This subscription has ended. Buy it again to start a new one.", "SUBSCRIPTION_ENDED");
  // Past due, the paid period is over already: cancelling ends it now, with the renewal it had not paid.
  if (cancel && current.status === "past_due") {
    await db.transaction(async (tx) => {
      const row = await subscriptionOfUser(tx, userId, id);
      if (row && !row.subscription.endedAt)
        await endSubscriptionWith(tx, row.subscription, now, "cancelled", now);
    });
    return subscriptionOf(db, userId, id, now);
  }
  await db.transaction(async (tx) => {
    const changed = await setCancelAtPeriodEnd(tx, userId, id, cancel, now);
    if (changed && cancel && current.status !== "cancelling")
      await subscriptionEvents(tx, [id], "subscription.cancelled", now);
  });
  return subscriptionOf(db, userId, id, now);
}

/**
 * A buyer deleting their account: every subscription ends now, its unpaid renewal (or final bill) is
 * cancelled, its use is not billed, and its keys stop working, so nothing renews or falls due for an
 * account that is gone.
 */
export async function endSubscriptionsOfDeletedAccount(tx: Transaction, userId: string, now: Date) {
  const ended = await endAllOfUser(tx, userId, now);
  const unpaid = await unpaidRenewalsOf(
    tx,
    ended.map((s) => s.id),
  );
  await cancelUnpaidOrders(
    tx,
    [...unpaid.values(), ...(await unpaidFinalBillsOfUser(tx, userId))].map((renewal) => renewal.orderId),
    now,
  );
  // Nor is the use of their metered subscriptions billed after the end.
  await closeUnratedPeriodsOfUser(tx, userId, now);
  for (const subscription of ended) {
    const revoked = await revokeLicensesOf(tx, subscription.orderItemId, now);
    await licensesRevokedEvents(tx, { ids: revoked }, now, "account_deleted");
  }
  await subscriptionEvents(
    tx,
    ended.map((s) => s.id),
    "subscription.ended",
    now,
  );
}

/**
 * A seller deleting their account: the subscriptions to their products stop renewing and run to the end
 * of the period paid for; a renewal invoiced and unpaid is cancelled, a change waiting is dropped, and
 * each buyer is told by e-mail, queued in the deletion's transaction.
 */
export async function stopSubscriptionsOfDeletedSeller(
  tx: Transaction,
  mailer: Mailer,
  sellerId: string,
  deskUrl: string,
  now: Date,
) {
  const stopped = await stopRenewalsOfSeller(tx, sellerId, now);
  const ids = stopped.map(({ subscription }) => subscription.id);
  const unpaid = await unpaidRenewalsOf(tx, ids);
  await cancelUnpaidOrders(
    tx,
    [...unpaid.values()].map((renewal) => renewal.orderId),
    now,
  );
  await cancelWaitingChanges(tx, ids, now);
  await mailer.sendMany(
    stopped.flatMap(({ subscription, contact }) =>
      contact?.customerInfo.email
        ? [
            {
              to: contact.customerInfo.email,
              ...sellerLeftMail({
                fullName: contact.customerInfo.fullName,
                productName: contact.productName,
                endsAt: subscription.paidThrough,
                renewalCancelled: unpaid.has(subscription.id),
                deskUrl,
              }),
            },
          ]
        : [],
    ),
    { tx },
  );
}

/**
 * Ends a subscription at `endedAt` for `reason` (the renewal job, an admin): its unpaid renewal order is
 * cancelled, so it can no longer be paid, and its licences are revoked. A metered subscription's use up
 * to the end is billed by the final bill an hour after it (`billFinalUse`, decision 0029), with, when it
 * is cancelled (not unpaid), the use the cancelled order billed. Answers the renewal order it cancelled,
 * if any.
 */
export async function endSubscriptionWith(
  tx: Transaction,
  subscription: Pick<SubscriptionRow, "id" | "orderItemId">,
  endedAt: Date,
  reason: "cancelled" | "unpaid",
  now: Date,
): Promise<{ cancelledOrderId: string | null }> {
  await endSubscription(tx, subscription.id, endedAt, reason);
  const unpaid = (await unpaidRenewalsOf(tx, [subscription.id])).get(subscription.id);
  if (unpaid) {
    await cancelUnpaidOrders(tx, [unpaid.orderId], now);
    // Cancelled with use on it that was served and is not paid: the final bill rates that use again. Not
    // when it ends unpaid: that renewal stays the bill for its use, and paying it late brings the
    // subscription back (`renewalPaid`), which a second bill of the same use would charge twice.
    if (reason === "cancelled") await reopenPeriodsOf(tx, unpaid.orderId, now);
  }
  const revoked = await revokeLicensesOf(tx, subscription.orderItemId, now);
  await licensesRevokedEvents(tx, { ids: revoked }, now, "subscription_ended");
  await subscriptionEvents(tx, [subscription.id], "subscription.ended", now);
  return { cancelledOrderId: unpaid?.orderId ?? null };
}

/**
 * In an approved refund's transaction (decision 0027): a refunded item of a subscription's orders takes
 * back the service it paid for.
 * - The item that started it, or a renewal's line: the subscription ends now, its unpaid renewal is
 *   cancelled and its keys are revoked. The refund window is shorter than a period, so the refunded
 *   period is the current one (or the first).
 * - A change's line: an upgrade within the period goes back to the terms before it; monthly to yearly,
 *   whose year is refunded, ends the subscription.
 */
export async function subscriptionItemRefunded(tx: Transaction, orderItemId: string, now: Date) {
  const paid = await subscriptionOfPaidItem(tx, orderItemId);
  if (!paid || paid.subscription.endedAt) return;
  const { subscription, change } = paid;
  if (change) {
    // A change paid for but never applied (its period had moved on) took nothing to give back.
    if (change.status !== "applied") return;
    if (change.kind !== "restart") {
      await revertChange(tx, change, now);
      return keysFollowSeats(tx, subscription.id, now);
    }
  }
  await endSubscriptionWith(tx, subscription, now, "cancelled", now);
}

/**
 * Whom to write to about a subscription: the billing e-mail and name of the order that started it, and
 * the product's name as bought; null when that order or item is gone.
 */
export async function buyerOfSubscription(
  db: Db,
  subscription: Pick<SubscriptionRow, "orderId" | "orderItemId">,
) {
  const [order, item] = await Promise.all([
    originOrder(db, subscription.orderId),
    originItem(db, subscription.orderItemId),
  ]);
  if (!order || !item) return null;
  return {
    email: order.customerInfo.email,
    fullName: order.customerInfo.fullName,
    productName: item.productName,
  };
}

/**
 * The payment reminder of a subscription's unpaid renewal, addressed to its buyer, as the renewal job
 * sends it on the retry days and an admin sends it again; null when no renewal waits for payment or no
 * one can be written to.
 */
export async function renewalReminderOf(
  db: Db,
  subscription: Pick<SubscriptionRow, "id" | "orderId" | "orderItemId">,
  deskUrl: string,
) {
  const [buyer, unpaid] = await Promise.all([
    buyerOfSubscription(db, subscription),
    unpaidRenewalsOf(db, [subscription.id]).then((due) => due.get(subscription.id)),
  ]);
  if (!buyer?.email || !unpaid) return null;
  if (unpaid.final)
    return {
      to: buyer.email,
      ...finalUsageReminderMail({
        fullName: buyer.fullName,
        productName: buyer.productName,
        total: unpaid.total,
        deskUrl,
      }),
    };
  return {
    to: buyer.email,
    ...renewalReminderMail({
      fullName: buyer.fullName,
      productName: buyer.productName,
      total: unpaid.total,
      dueAt: unpaid.dueAt,
      endsAt: unpaidRenewalEndsAt(unpaid.dueAt),
      deskUrl,
    }),
  };
}
