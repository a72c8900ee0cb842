import type { FastifyInstance } from "fastify";
import { BANK_TRANSFER_METHOD } from "#domain/bank-transfer";
import { addBusinessDays } from "#domain/business-days";
import type { Order } from "#domain/checkout";
import { DAY_MS, formatDate } from "#domain/dates";
import { rateUsage, usageLabel, usagePeriod } from "#domain/metering";
import { computeTotals, type Totals, toUnits } from "#domain/money";
import { checkoutMethodOf, methodLabel, PRE_DEBIT_NOTICE_MS } from "#domain/payment-methods";
import { absoluteUrl, paths } from "#domain/routes";
import {
  DEFAULT_RETRY_DAYS,
  renewalInvoiceAt,
  retryTimes,
  TRIAL_ENDING_NOTICE_DAYS,
  USAGE_GRACE_MS,
  unitPriceDue,
  unpaidRenewalEndsAt,
  yearlyNoticesDue,
} from "#domain/subscriptions";
import type { Transaction } from "#server/db/client";
import type { JobDefinition } from "#server/jobs/queue";
import {
  chargeDeclinedMail,
  finalUsageBillMail,
  finalUsageDeclinedMail,
  preDebitNoticeMail,
  renewalDueMail,
  subscriptionEndedMail,
  yearlyRenewalNoticeMail,
} from "#server/mail/renewal-mail";
import { openBankTransfer } from "#server/modules/bank-transfers/service";
import { findMethodById, type MethodRow } from "#server/modules/payment-methods/repository";
import {
  chargeSavedAttempt,
  openSavedAttempt,
  type PaymentDeps,
  paymentDepsOf,
} from "#server/modules/payments/service";
import {
  endedToBill,
  insertRenewalItems,
  insertRenewalOrders,
  preDebitNoticesToSend,
  type RenewalCharge,
  renewalsToCharge,
  setChargesTried,
  setPreDebitNoticeSent,
  setRenewalNoticesSent,
  yearlyNoticesToSend,
} from "#server/modules/renewals/repository";
import { subscriptionEvents } from "#server/modules/seller-webhooks/events";
import { deliverInTx } from "#server/modules/settlement/service";
import {
  cancelledToEnd,
  cancelWaitingChanges,
  claimRenewals,
  effectiveMethodsOf,
  originItems,
  originOrders,
  overdueRenewals,
  type SubscriptionRow,
  setRemindersSent,
  setTrialEndingNoticed,
  subscriptionsToInvoice,
  transferRenewalsToInvoice,
  trialsEndingSoon,
  waitingChangesOf,
} from "#server/modules/subscriptions/repository";
import {
  buyerOfSubscription,
  endSubscriptionWith,
  renewalReminderOf,
} from "#server/modules/subscriptions/service";
import { lockPeriodsToRate, lockUnratedPeriods, markRated } from "#server/modules/usage/repository";

/**
 * What the renewal job needs: the payments' (a renewal is charged on a saved method, or paid by transfer
 * or on a payment page) and mail.
 */
export type RenewalDeps = PaymentDeps;

/** Subscriptions handled per transaction: a crash loses at most one batch's uncommitted work, never half of one. */
export const RENEWAL_BATCH = 250;
/** Renewals charged per transaction: each charge then waits on its provider. */
export const CHARGE_BATCH = 50;

export type RenewalRun = {
  invoiced: number;
  /** Final bills made of ended metered subscriptions' use (decision 0029). */
  finalBills: number;
  reminded: number;
  ended: number;
  noticed: number;
  /** Renewals charged on a saved method this pass, and charges declined (`hardDeclined` of them for good). */
  charged: number;
  declined: number;
  hardDeclined: number;
  /** India's pre-debit notices sent. */
  preDebitNotices: number;
};

/**
 * One pass of the renewal job (decision 0027), at `now` by the money clock:
 * 1. subscriptions cancelled for their period's end whose end has come end, with any unpaid renewal;
 * 2. each live subscription whose next renewal is due within its lead time (`renewalInvoiceAt`; for one
 *    paid by bank transfer, BANK_TRANSFER_RENEWAL_LEAD_BUSINESS_DAYS business days when that is more) is
 *    invoiced: a renewal order for the next period, claimed once per (subscription, period) by a unique
 *    row written with the order, and the buyer is e-mailed to pay it (a bank-transfer subscription gets
 *    its transfer instructions as at checkout). Paying it is an ordinary payment; its delivery extends
 *    the subscription;
 * 3. a renewal renewing on a saved card or PayPal account is charged off-session when due, and again on
 *    each retry day while unpaid (`chargeRenewals`); a card billed in India a day after its pre-debit
 *    notice at the earliest, which is sent as soon as the renewal is invoiced;
 * 4. an unpaid renewal past its due date is reminded on each retry day, and on the last one the
 *    subscription ends as unpaid: its order is cancelled and its licences revoked;
 * 5. a yearly subscription renewing in 30 days, and again in 7, gets a notice of it, once each per period
 *    (`renewal_notices_sent`, set back to 0 when a period is paid).
 * Every step takes its rows with `FOR UPDATE SKIP LOCKED` in batches, so instances running the job at
 * once share the work and never do the same step twice.
 */
export async function runRenewals(
  deps: RenewalDeps,
  now: Date,
  /** Told after each committed batch, with the pass's counts so far (progress for a log or a test). */
  onBatch?: (run: Readonly<RenewalRun>) => void,
): Promise<RenewalRun> {
  const run: RenewalRun = {
    invoiced: 0,
    finalBills: 0,
    reminded: 0,
    ended: 0,
    noticed: 0,
    charged: 0,
    declined: 0,
    hardDeclined: 0,
    preDebitNotices: 0,
  };
  const desk = absoluteUrl(deps.origin, paths.dashboard("subscriptions"));
  for (;;) {
    const done = await deps.db.transaction(async (tx) => {
      const due = await cancelledToEnd(tx, now, RENEWAL_BATCH);
      for (const subscription of due) {
        await endSubscriptionWith(tx, subscription, subscription.paidThrough, "cancelled", now);
        run.ended++;
      }
      return due.length < RENEWAL_BATCH;
    });
    onBatch?.(run);
    if (done) break;
  }
  // Ended metered subscriptions' use is billed once their end's grace for late records has passed.
  const meteredUntil = new Date(now.getTime() - USAGE_GRACE_MS);
  for (;;) {
    const done = await deps.db.transaction(async (tx) => {
      const due = await endedToBill(tx, meteredUntil, RENEWAL_BATCH);
      run.finalBills += await billFinalUse(deps, tx, due, desk, now);
      return due.length < RENEWAL_BATCH;
    });
    onBatch?.(run);
    if (done) break;
  }
  // Renewals paid by bank transfer first: their pro-forma invoice goes out a set number of business
  // days ahead, earlier than the usual lead.
  const transferUntil = addBusinessDays(now, deps.providers.bankTransfer.renewalLeadBusinessDays);
  for (;;) {
    const done = await deps.db.transaction(async (tx) => {
      const due = await transferRenewalsToInvoice(tx, transferUntil, meteredUntil, RENEWAL_BATCH);
      const invoiced = await invoice(deps, tx, due, desk, now);
      run.invoiced += invoiced;
      return due.length < RENEWAL_BATCH || invoiced === 0;
    });
    onBatch?.(run);
    if (done) break;
  }
  const invoiceUntil = {
    month: leadLimit(now, "month"),
    year: leadLimit(now, "year"),
    metered: meteredUntil,
  };
  for (;;) {
    const done = await deps.db.transaction(async (tx) => {
      const due = await subscriptionsToInvoice(tx, invoiceUntil, RENEWAL_BATCH);
      const invoiced = await invoice(deps, tx, due, desk, now);
      run.invoiced += invoiced;
      // A full batch of which none could be invoiced (origins gone) would be taken again: the pass ends.
      return due.length < RENEWAL_BATCH || invoiced === 0;
    });
    onBatch?.(run);
    if (done) break;
  }
  await chargeRenewals(deps, now, desk, run);
  // Sellers' systems hear of a free trial ending a few days ahead, once (`subscription.trial_ending`).
  const trialsUntil = new Date(now.getTime() + TRIAL_ENDING_NOTICE_DAYS * DAY_MS);
  for (;;) {
    const done = await deps.db.transaction(async (tx) => {
      const ending = (await trialsEndingSoon(tx, now, trialsUntil, RENEWAL_BATCH)).map((s) => s.id);
      await setTrialEndingNoticed(tx, ending, now);
      await subscriptionEvents(tx, ending, "subscription.trial_ending", now);
      return ending.length < RENEWAL_BATCH;
    });
    if (done) break;
  }
  for (;;) {
    const done = await deps.db.transaction(async (tx) => {
      const overdue = await overdueRenewals(tx, now, DEFAULT_RETRY_DAYS, RENEWAL_BATCH);
      let acted = 0;
      for (const { renewal, subscription } of overdue) {
        const retries = retryTimes(renewal.dueAt);
        const passed = retries.filter((at) => at <= now).length;
        if (renewal.final) {
          // A final bill is reminded on each retry day and stays payable: its subscription has ended already.
          await setRemindersSent(tx, renewal.id, passed);
          const reminder = await renewalReminderOf(tx, subscription, desk);
          if (reminder) await deps.mailer.send(reminder, { tx });
          run.reminded++;
          acted++;
        } else if (passed >= retries.length) {
          await endSubscriptionWith(tx, subscription, now, "unpaid", now);
          const order = await buyerOfSubscription(tx, subscription);
          if (order?.email)
            await deps.mailer.send(
              {
                to: order.email,
                ...subscriptionEndedMail({
                  fullName: order.fullName,
                  productName: order.productName,
                  dueAt: renewal.dueAt,
                  deskUrl: desk,
                }),
              },
              { tx },
            );
          run.ended++;
          acted++;
        } else if (passed > renewal.remindersSent) {
          // The first reminder is when the seller hears the renewal is unpaid.
          if (renewal.remindersSent === 0)
            await subscriptionEvents(tx, [subscription.id], "subscription.past_due", now);
          await setRemindersSent(tx, renewal.id, passed);
          const reminder = await renewalReminderOf(tx, subscription, desk);
          if (reminder) await deps.mailer.send(reminder, { tx });
          run.reminded++;
          acted++;
        }
      }
      // Only rows with a step due are taken, so each acts; a batch that changed nothing ends the pass anyway.
      return overdue.length < RENEWAL_BATCH || acted === 0;
    });
    onBatch?.(run);
    if (done) break;
  }
  for (;;) {
    const done = await deps.db.transaction(async (tx) => {
      const due = await yearlyNoticesToSend(tx, now, RENEWAL_BATCH);
      // A change scheduled for the renewal sets what it will cost.
      const changes = await waitingChangesOf(
        tx,
        due.map((s) => s.id),
      );
      for (const subscription of due) {
        const sent = yearlyNoticesDue(subscription.paidThrough, now);
        await setRenewalNoticesSent(tx, subscription.id, sent);
        const change = changes.get(subscription.id);
        const scheduled = change?.status === "scheduled" ? change : null;
        const price = scheduled?.toUnitPrice ?? unitPriceDue(subscription, subscription.paidThrough);
        const quantity = scheduled?.toQuantity ?? subscription.quantity;
        await deps.mailer.send(
          {
            to: subscription.customerInfo.email,
            ...yearlyRenewalNoticeMail({
              fullName: subscription.customerInfo.fullName,
              productName: subscription.productName,
              total: computeTotals([{ price, quantity }], subscription.taxRate).total,
              dueAt: subscription.paidThrough,
              deskUrl: desk,
            }),
          },
          { tx },
        );
        run.noticed++;
      }
      return due.length < RENEWAL_BATCH;
    });
    onBatch?.(run);
    if (done) break;
  }
  return run;
}

/** The latest moment a renewal may fall due and be invoiced now. */
function leadLimit(now: Date, interval: "month" | "year"): Date {
  // renewalInvoiceAt(dueAt) <= now  ⇔  dueAt <= now + lead.
  return new Date(2 * now.getTime() - renewalInvoiceAt(now, interval).getTime());
}

/** A renewal order made for a subscription's next period, and what its e-mails say. */
export type RenewalOrder = {
  subscription: SubscriptionRow;
  orderId: string;
  total: string;
  byTransfer: boolean;
  /** The saved card or PayPal account it will be charged to, by its label; null when paid by hand. */
  chargedTo: string | null;
  customerInfo: Order["customerInfo"];
  productName: string;
};

/**
 * Makes the renewal orders of these subscriptions' next periods, as the orders that started them were
 * made: the same buyer, address, tax decision and payment method, the price and quantity agreed then,
 * pending payment (processing, for a bank transfer). Set-based, in five statements for the whole set:
 * what the renewals need of their origin orders and items, read in one query each; the orders inserted
 * in one, each skipped if its idempotency key `renewal:<subscription>:<period>` is taken; their lines in
 * one; their claims, one per (subscription, period), with each subscription's `claimed_period`, in one.
 * The amounts are `computeTotals`' for each subscription's price and seats at its origin's tax rate. A
 * subscription whose origin order or item is gone, or whose order exists already, gets none. A claim
 * found taken throws, rolling the whole set back: the key and the claim both make a second renewal of a
 * period impossible.
 */
export async function makeRenewalOrders(
  tx: Transaction,
  due: readonly SubscriptionRow[],
  now: Date,
): Promise<RenewalOrder[]> {
  if (due.length === 0) return [];
  // One after the other: a transaction's connection runs one statement at a time.
  const origins = await originOrders(
    tx,
    due.map((s) => s.orderId),
  );
  const items = await originItems(
    tx,
    due.map((s) => s.orderItemId),
  );
  const changes = await waitingChangesOf(
    tx,
    due.map((s) => s.id),
  );
  const methods = await effectiveMethodsOf(
    tx,
    due.map((s) => s.id),
  );
  // A metered subscription's renewal also bills the use of the period now ending (decision 0029),
  // rated under its period's lock so that no report slips in between.
  const metered = due.filter((s) => s.meterUnit && s.usageTiers && s.periodsPaid > 0);
  const used = await lockPeriodsToRate(
    tx,
    metered.map((s) => ({ subscriptionId: s.id, periodIndex: s.periodsPaid - 1 })),
    now,
  );
  const planned = new Map<
    string,
    Omit<RenewalOrder, "orderId" | "total"> & {
      totals: Totals;
      taxRate: string;
      price: string;
      quantity: number;
      paymentMethod: string | null;
      usage: { amount: string; description: string } | null;
    }
  >();
  for (const subscription of due) {
    const origin = origins.get(subscription.orderId);
    const item = items.get(subscription.orderItemId);
    if (!origin || !item) continue;
    // A change scheduled for this period sets its terms; otherwise an announced new price applies from
    // the renewal its notice reached (decision 0027).
    const change = changes.get(subscription.id);
    const scheduled = change?.status === "scheduled" ? change : null;
    const price = scheduled?.toUnitPrice ?? unitPriceDue(subscription, subscription.paidThrough);
    const quantity = scheduled?.toQuantity ?? subscription.quantity;
    // A saved method decides how the renewal is paid; without one, as the first order was.
    const method = methods.get(subscription.id) ?? null;
    const paymentMethod = method ? checkoutMethodOf(method.kind) : null;
    const usage = usageLine(subscription, used.get(subscription.id));
    planned.set(renewalKey(subscription), {
      subscription,
      price,
      quantity,
      usage,
      totals: computeTotals(
        [{ price, quantity }, ...(usage ? [{ price: usage.amount, quantity: 1 }] : [])],
        origin.taxRate,
      ),
      taxRate: origin.taxRate,
      paymentMethod,
      chargedTo: method && method.kind !== "bank_transfer" && !method.declinedAt ? methodLabel(method) : null,
      byTransfer: (paymentMethod ?? origin.paymentMethod) === BANK_TRANSFER_METHOD,
      customerInfo: origin.customerInfo,
      productName: item.productName,
    });
  }
  const inserted = await insertRenewalOrders(
    tx,
    [...planned].map(([idempotencyKey, { subscription, totals, byTransfer, paymentMethod }]) => ({
      subscriptionId: subscription.id,
      idempotencyKey,
      subtotal: totals.subtotal,
      tax: totals.tax,
      total: totals.total,
      // A renewal of nothing is settled as it is made (`invoice`), not waited for as a transfer.
      paymentStatus: byTransfer && toUnits(totals.total) > 0 ? "processing" : "pending",
      paymentMethod,
    })),
    now,
  );
  const made = inserted.map(({ id, idempotencyKey }) => {
    const plan = planned.get(idempotencyKey);
    if (!plan) throw new Error(`renewal order ${id} matches no subscription of the batch`);
    return { ...plan, orderId: id, total: plan.totals.total };
  });
  if (made.length === 0) return [];
  await insertRenewalItems(
    tx,
    made.flatMap(({ subscription, orderId, totals, taxRate, price, quantity, usage }) => [
      { orderId, subscriptionId: subscription.id, price, quantity, tax: totals.lineTaxes[0] ?? "0", taxRate },
      ...(usage
        ? [
            {
              orderId,
              subscriptionId: subscription.id,
              price: usage.amount,
              quantity: 1,
              tax: totals.lineTaxes[1] ?? "0",
              taxRate,
              description: usage.description,
            },
          ]
        : []),
    ]),
  );
  await markRated(
    tx,
    made.flatMap(({ subscription, orderId, usage }) =>
      usage ? [{ subscriptionId: subscription.id, periodIndex: subscription.periodsPaid - 1, orderId }] : [],
    ),
    now,
  );
  const claimed = await claimRenewals(
    tx,
    made.map(({ subscription, orderId }) => ({
      subscriptionId: subscription.id,
      periodIndex: subscription.periodsPaid,
      orderId,
      dueAt: subscription.paidThrough,
    })),
    now,
  );
  for (const { subscription } of made)
    if (!claimed.has(subscription.id))
      throw new Error(
        `renewal ${subscription.periodsPaid} of subscription ${subscription.id} was claimed twice`,
      );
  // A change still waiting for its payment was priced in the period now ending: the renewal is invoiced
  // at the terms in effect, and the change with its order is cancelled.
  // (Read with the batch: most batches have none, and write nothing.)
  const awaiting = made.filter(
    ({ subscription }) => changes.get(subscription.id)?.status === "awaiting_payment",
  );
  await cancelWaitingChanges(
    tx,
    awaiting.map(({ subscription }) => subscription.id),
    now,
    ["awaiting_payment"],
  );
  return made.map(
    ({
      totals: _totals,
      taxRate: _taxRate,
      quantity: _quantity,
      paymentMethod: _method,
      usage: _usage,
      ...order
    }) => order,
  );
}

/**
 * The line billing a metered subscription's period now ending: its use rated by the agreed tiers, to
 * the cent, described with the use and the period ("Usage: 12,345 calls, Nov 1, 2026 – Dec 1, 2026"). Null for
 * a subscription that is not metered, or whose period was rated already.
 */
function usageLine(subscription: SubscriptionRow, quantity: number | undefined) {
  if (!subscription.meterUnit || !subscription.usageTiers || quantity === undefined) return null;
  const period = usagePeriod(subscription, subscription.periodsPaid - 1);
  return {
    amount: rateUsage(quantity, subscription.usageTiers),
    description: `Usage: ${usageLabel(quantity, subscription.meterUnit)}, ${formatDate(period.start)} – ${formatDate(period.end)}`,
  };
}

/** The renewal order's idempotency key: one per (subscription, period), whatever the period's index. */
const renewalKey = (subscription: SubscriptionRow) =>
  `renewal:${subscription.id}:${subscription.periodsPaid}`;

/** The renewal order of one subscription's next period (`makeRenewalOrders` of one); null when none was made. */
export async function makeRenewalOrder(tx: Transaction, subscription: SubscriptionRow, now: Date) {
  const [made] = await makeRenewalOrders(tx, [subscription], now);
  return made ?? null;
}

/**
 * The final bills of ended metered subscriptions (decision 0029): once a subscription has ended (at its
 * period's end, at once, unpaid or refunded) and the hour's grace for late records has passed, the use
 * of its periods not rated yet (the last period, up to the end, and a period whose renewal was cancelled
 * unpaid with the end) is rated under the periods' locks and billed on one order, with one line per
 * period and tax as on any renewal, without a fixed fee or a new period. The order is claimed by a final
 * renewal row (`final`, keyed by the period after the last one billed), so the charge, the pre-debit
 * notice, the reminders and paying it by hand go as for a renewal, but paying it extends nothing and
 * an unpaid one ends nothing: it stays payable. Written in the batch's transaction with the periods
 * marked rated: a crash leaves it whole or not made, and a second pass finds the periods rated. Use that
 * comes to nothing is rated on no order: no bill. Answers how many bills were made.
 */
export async function billFinalUse(
  deps: RenewalDeps,
  tx: Transaction,
  due: readonly SubscriptionRow[],
  desk: string,
  now: Date,
): Promise<number> {
  if (due.length === 0) return 0;
  const periods = await lockUnratedPeriods(
    tx,
    due.map((s) => s.id),
  );
  const origins = await originOrders(
    tx,
    due.map((s) => s.orderId),
  );
  const items = await originItems(
    tx,
    due.map((s) => s.orderItemId),
  );
  const methods = await effectiveMethodsOf(
    tx,
    due.map((s) => s.id),
  );
  const closed: { subscriptionId: string; periodIndex: number; orderId: null }[] = [];
  const planned = new Map<
    string,
    {
      subscription: SubscriptionRow;
      claimIndex: number;
      periods: number[];
      lines: { amount: string; description: string }[];
      totals: Totals;
      taxRate: string;
      paymentMethod: string | null;
      byTransfer: boolean;
      chargedTo: string | null;
      customerInfo: Order["customerInfo"];
      productName: string;
    }
  >();
  for (const subscription of due) {
    const mine = periods.filter((p) => p.subscriptionId === subscription.id);
    const origin = origins.get(subscription.orderId);
    const item = items.get(subscription.orderItemId);
    const lines =
      subscription.meterUnit && subscription.usageTiers
        ? mine.flatMap((p) => {
            const line = finalUsageLine(subscription, p.periodIndex, p.quantity);
            return line && toUnits(line.amount) > 0 ? [line] : [];
          })
        : [];
    if (!origin || !item || lines.length === 0) {
      closed.push(
        ...mine.map((p) => ({ subscriptionId: subscription.id, periodIndex: p.periodIndex, orderId: null })),
      );
      continue;
    }
    const method = methods.get(subscription.id) ?? null;
    const paymentMethod = method ? checkoutMethodOf(method.kind) : null;
    // The period after the last one billed, and after any renewal claimed (one cancelled with the end).
    const claimIndex = Math.max(
      ...mine.map((p) => p.periodIndex + 1),
      subscription.periodsPaid,
      (subscription.claimedPeriod ?? -1) + 1,
    );
    planned.set(`usage:${subscription.id}:${claimIndex}`, {
      subscription,
      claimIndex,
      periods: mine.map((p) => p.periodIndex),
      lines,
      totals: computeTotals(
        lines.map((line) => ({ price: line.amount, quantity: 1 })),
        origin.taxRate,
      ),
      taxRate: origin.taxRate,
      paymentMethod,
      chargedTo: method && method.kind !== "bank_transfer" && !method.declinedAt ? methodLabel(method) : null,
      byTransfer: (paymentMethod ?? origin.paymentMethod) === BANK_TRANSFER_METHOD,
      customerInfo: origin.customerInfo,
      productName: item.productName,
    });
  }
  await markRated(tx, closed, now);
  const inserted = await insertRenewalOrders(
    tx,
    [...planned].map(([idempotencyKey, { subscription, totals, byTransfer, paymentMethod }]) => ({
      subscriptionId: subscription.id,
      idempotencyKey,
      subtotal: totals.subtotal,
      tax: totals.tax,
      total: totals.total,
      // A renewal of nothing is settled as it is made (`invoice`), not waited for as a transfer.
      paymentStatus: byTransfer && toUnits(totals.total) > 0 ? "processing" : "pending",
      paymentMethod,
    })),
    now,
  );
  const made = inserted.map(({ id, idempotencyKey }) => {
    const plan = planned.get(idempotencyKey);
    if (!plan) throw new Error(`final bill ${id} matches no subscription of the batch`);
    return { ...plan, orderId: id };
  });
  if (made.length === 0) return 0;
  await insertRenewalItems(
    tx,
    made.flatMap(({ subscription, orderId, lines, totals, taxRate }) =>
      lines.map((line, index) => ({
        orderId,
        subscriptionId: subscription.id,
        price: line.amount,
        quantity: 1,
        tax: totals.lineTaxes[index] ?? "0",
        taxRate,
        description: line.description,
      })),
    ),
  );
  await markRated(
    tx,
    made.flatMap(({ subscription, orderId, periods: billed }) =>
      billed.map((periodIndex) => ({ subscriptionId: subscription.id, periodIndex, orderId })),
    ),
    now,
  );
  const claimed = await claimRenewals(
    tx,
    made.map(({ subscription, orderId, claimIndex }) => ({
      subscriptionId: subscription.id,
      periodIndex: claimIndex,
      orderId,
      dueAt: now,
      final: true,
    })),
    now,
  );
  for (const { subscription } of made)
    if (!claimed.has(subscription.id))
      throw new Error(`the final bill of subscription ${subscription.id} was claimed twice`);
  for (const { subscription, orderId, totals, customerInfo, byTransfer } of made)
    if (byTransfer)
      await openBankTransfer(
        deps,
        tx,
        { id: orderId, userId: subscription.userId, totalAmount: totals.total, customerInfo },
        now,
      );
  await deps.mailer.sendMany(
    made.map(({ totals, customerInfo, productName, chargedTo }) => ({
      to: customerInfo.email,
      ...finalUsageBillMail({
        fullName: customerInfo.fullName,
        productName,
        total: totals.total,
        deskUrl: desk,
        method: chargedTo,
      }),
    })),
    { tx },
  );
  return made.length;
}

/**
 * The line billing one period of an ended subscription's use: rated by its agreed tiers, described with
 * the use and the part of the period it was used in (up to the end). Null for a subscription not metered.
 */
function finalUsageLine(subscription: SubscriptionRow, periodIndex: number, quantity: number) {
  if (!subscription.meterUnit || !subscription.usageTiers) return null;
  const period = usagePeriod(subscription, periodIndex);
  const end = subscription.endedAt && subscription.endedAt < period.end ? subscription.endedAt : period.end;
  return {
    amount: rateUsage(quantity, subscription.usageTiers),
    description: `Usage: ${usageLabel(quantity, subscription.meterUnit)}, ${formatDate(period.start)} – ${formatDate(end)}`,
  };
}

/**
 * Invoices a batch of subscriptions' next renewals: their orders (`makeRenewalOrders`), the transfer
 * instructions of those paid by bank transfer (one by one, as at checkout: they are few), and the
 * renewal e-mails, queued in one statement. Answers how many were invoiced.
 */
async function invoice(
  deps: RenewalDeps,
  tx: Transaction,
  due: readonly SubscriptionRow[],
  desk: string,
  now: Date,
): Promise<number> {
  const made = await makeRenewalOrders(tx, due, now);
  const owed = [];
  for (const renewal of made) {
    const { subscription, orderId, total, customerInfo, byTransfer } = renewal;
    // A renewal that comes to nothing (a plan priced by use alone, unused: decision 0029) is settled at
    // once, as a checkout with nothing due is: no provider takes a $0 charge, and the period goes on.
    if (toUnits(total) === 0) {
      await deliverInTx(deps.settlement, tx, orderId, "nothing_due", now);
      continue;
    }
    owed.push(renewal);
    if (byTransfer)
      await openBankTransfer(
        deps,
        tx,
        { id: orderId, userId: subscription.userId, totalAmount: total, customerInfo },
        now,
      );
  }
  await deps.mailer.sendMany(
    owed.map(({ subscription, total, customerInfo, productName, chargedTo }) => ({
      to: customerInfo.email,
      ...renewalDueMail({
        fullName: customerInfo.fullName,
        productName,
        total,
        dueAt: subscription.paidThrough,
        endsAt: unpaidRenewalEndsAt(subscription.paidThrough),
        deskUrl: desk,
        method: chargedTo,
      }),
    })),
    { tx },
  );
  return made.length;
}

/**
 * Charges renewals on their saved methods (decision 0027), after sending the pre-debit notices India
 * requires. Each set is taken under `FOR UPDATE SKIP LOCKED`; in one transaction each renewal's try is
 * counted (`charges_tried`) and its attempt opened, so no other pass or instance charges it again for
 * this try; then each attempt is charged at its provider with `<order>:<attempt>` as idempotency key and
 * its answer applied (`chargeSavedAttempt`). A crash between the two leaves an attempt without its
 * provider reference, which reconciliation sends again with the same key: charged once or not at all.
 * A hard decline marks the method and e-mails the buyer at once; a soft one waits for the next retry day.
 */
export async function chargeRenewals(deps: RenewalDeps, now: Date, desk: string, run: RenewalRun) {
  for (;;) {
    const done = await deps.db.transaction(async (tx) => {
      const due = await preDebitNoticesToSend(tx, RENEWAL_BATCH);
      const methods = await methodsById(tx, due);
      await deps.mailer.sendMany(
        due.map((renewal) => ({
          to: renewal.customerInfo.email,
          ...preDebitNoticeMail({
            ...mailOf(renewal, desk),
            method: labelOf(methods, renewal),
            chargeAt: new Date(Math.max(renewal.dueAt.getTime(), now.getTime() + PRE_DEBIT_NOTICE_MS)),
          }),
        })),
        { tx },
      );
      await setPreDebitNoticeSent(
        tx,
        due.map((renewal) => renewal.claimId),
        now,
      );
      run.preDebitNotices += due.length;
      return due.length < RENEWAL_BATCH;
    });
    if (done) break;
  }
  for (;;) {
    const opened = await deps.db.transaction(async (tx) => {
      const due = await renewalsToCharge(
        tx,
        now,
        DEFAULT_RETRY_DAYS,
        new Date(now.getTime() - PRE_DEBIT_NOTICE_MS),
        CHARGE_BATCH,
      );
      const methods = await methodsById(tx, due);
      const attempts = [];
      for (const renewal of due) {
        await setChargesTried(tx, renewal.claimId, renewal.chargesTried + 1);
        const method = methods.get(renewal.methodId);
        if (!method) continue;
        const payment = await openSavedAttempt(tx, renewal.orderId, method, now);
        if (payment) attempts.push({ renewal, payment, method });
      }
      return { taken: due.length, attempts };
    });
    for (const { renewal, payment, method } of opened.attempts) {
      try {
        const charge = await chargeSavedAttempt(deps, payment, method);
        if (charge.state === "paid") run.charged++;
        if (charge.state !== "declined") continue;
        run.declined++;
        if (!charge.hard) continue;
        run.hardDeclined++;
        const declined = { method: methodLabel(method), reason: charge.reason };
        await deps.mailer.send({
          to: renewal.customerInfo.email,
          ...(renewal.final
            ? finalUsageDeclinedMail({ ...mailOf(renewal, desk), ...declined })
            : chargeDeclinedMail({ ...mailOf(renewal, desk), ...declined })),
        });
      } catch (error) {
        deps.settlement.log.warn(
          { err: error, orderId: renewal.orderId },
          "renewals: saved method charge failed to reach its provider",
        );
      }
    }
    if (opened.taken < CHARGE_BATCH) break;
  }
}

async function methodsById(tx: Transaction, renewals: readonly RenewalCharge[]) {
  const methods = new Map<string, MethodRow>();
  for (const id of new Set(renewals.map((r) => r.methodId))) {
    const method = await findMethodById(tx, id);
    if (method) methods.set(id, method);
  }
  return methods;
}

const labelOf = (methods: Map<string, MethodRow>, renewal: RenewalCharge) => {
  const method = methods.get(renewal.methodId);
  return method ? methodLabel(method) : "saved payment method";
};

const mailOf = (renewal: RenewalCharge, desk: string) => ({
  fullName: renewal.customerInfo.fullName,
  productName: renewal.productName,
  total: renewal.total,
  dueAt: renewal.dueAt,
  endsAt: unpaidRenewalEndsAt(renewal.dueAt),
  deskUrl: desk,
});

/** The renewal job: when an instance starts, then every minute, across all instances. */
export function renewalJob(app: FastifyInstance): JobDefinition {
  return {
    name: "subscriptions-renew",
    cron: "* * * * *",
    runAtStart: true,
    retryLimit: 0,
    retryDelaySeconds: 60,
    describe: () =>
      "Invoice due subscription renewals and final bills of ended metered use, remind unpaid ones and end those past their last reminder",
    async run() {
      const run = await runRenewals(paymentDepsOf(app), app.clock.now());
      if (run.invoiced + run.finalBills + run.reminded + run.ended > 0)
        app.log.info({ ...run }, "renewals: pass done");
    },
  };
}
