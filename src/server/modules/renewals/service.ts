import type { FastifyInstance } from "fastify";
import { BANK_TRANSFER_METHOD } from "#domain/bank-transfer";
import { computeTotals } from "#domain/money";
import { absoluteUrl, paths } from "#domain/routes";
import { DEFAULT_RETRY_DAYS, renewalInvoiceAt, retryTimes, unpaidRenewalEndsAt } from "#domain/subscriptions";
import type { Transaction } from "#server/db/client";
import type { JobDefinition } from "#server/jobs/queue";
import { renewalDueMail, subscriptionEndedMail } from "#server/mail/renewal-mail";
import {
  type BankTransferDeps,
  bankTransferDepsOf,
  openBankTransfer,
} from "#server/modules/bank-transfers/service";
import { insertOrderItems, insertOrderOnce } from "#server/modules/orders/repository";
import {
  cancelledToEnd,
  claimRenewal,
  originItem,
  originOrder,
  overdueRenewals,
  type SubscriptionRow,
  setRemindersSent,
  subscriptionsToInvoice,
} from "#server/modules/subscriptions/repository";
import {
  buyerOfSubscription,
  endSubscriptionWith,
  renewalReminderOf,
} from "#server/modules/subscriptions/service";

/** What the renewal job needs: the bank-transfer set-up (a renewal may be paid by transfer) and mail. */
export type RenewalDeps = BankTransferDeps;

/** Subscriptions handled per transaction: a crash loses at most one batch's uncommitted work, never half of one. */
export const RENEWAL_BATCH = 50;

export type RenewalRun = { invoiced: number; reminded: number; ended: number };

/**
 * One pass of the renewal job (decision 0027), at `now` by the money clock:
 * 1. subscriptions cancelled for their period's end whose end has come end, with any unpaid renewal;
 * 2. each live subscription whose next renewal is due within its lead time (`renewalInvoiceAt`) is
 *    invoiced: a renewal order for the next period, claimed once per (subscription, period) by a unique
 *    row written with the order, and the buyer is e-mailed to pay it (a bank-transfer subscription gets
 *    its transfer instructions as at checkout). Paying it is an ordinary payment; its delivery extends
 *    the subscription;
 * 3. an unpaid renewal past its due date is reminded on each retry day, and on the last one the
 *    subscription ends as unpaid: its order is cancelled and its licences revoked.
 * Every step takes its rows with `FOR UPDATE SKIP LOCKED` in batches, so instances running the job at
 * once share the work and never do the same step twice.
 */
export async function runRenewals(
  deps: RenewalDeps,
  now: Date,
  /** Told after each committed batch, with the pass's counts so far (progress for a log or a test). */
  onBatch?: (run: Readonly<RenewalRun>) => void,
): Promise<RenewalRun> {
  const run: RenewalRun = { invoiced: 0, reminded: 0, ended: 0 };
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
  const invoiceUntil = { month: leadLimit(now, "month"), year: leadLimit(now, "year") };
  for (;;) {
    const done = await deps.db.transaction(async (tx) => {
      const due = await subscriptionsToInvoice(tx, invoiceUntil, RENEWAL_BATCH);
      for (const subscription of due) if (await invoice(deps, tx, subscription, desk, now)) run.invoiced++;
      return due.length < RENEWAL_BATCH;
    });
    onBatch?.(run);
    if (done) break;
  }
  for (;;) {
    const done = await deps.db.transaction(async (tx) => {
      const overdue = await overdueRenewals(tx, now, DEFAULT_RETRY_DAYS, RENEWAL_BATCH);
      let acted = 0;
      for (const { renewal, subscription } of overdue) {
        const retries = retryTimes(renewal.dueAt);
        const passed = retries.filter((at) => at <= now).length;
        if (passed >= retries.length) {
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
  return run;
}

/** The latest moment a renewal may fall due and be invoiced now. */
function leadLimit(now: Date, interval: "month" | "year"): Date {
  // renewalInvoiceAt(dueAt) <= now  ⇔  dueAt <= now + lead.
  return new Date(2 * now.getTime() - renewalInvoiceAt(now, interval).getTime());
}

/**
 * Makes the renewal order of a subscription's next period, as the order that started it was made: the
 * same buyer, address, tax decision and payment method, the price and quantity agreed then, pending
 * payment. Its idempotency key and the claim row, written with it, both make a second renewal of the
 * same period impossible. Null when the order or item it started from is gone.
 */
export async function makeRenewalOrder(tx: Transaction, subscription: SubscriptionRow, now: Date) {
  const [origin, item] = await Promise.all([
    originOrder(tx, subscription.orderId),
    originItem(tx, subscription.orderItemId),
  ]);
  if (!origin || !item) return null;
  const periodIndex = subscription.periodsPaid;
  const totals = computeTotals(
    [{ price: subscription.unitPrice, quantity: subscription.quantity }],
    origin.taxRate,
  );
  const byTransfer = origin.paymentMethod === BANK_TRANSFER_METHOD;
  const orderId = await insertOrderOnce(tx, {
    userId: subscription.userId,
    subtotal: totals.subtotal,
    tax: totals.tax,
    totalAmount: totals.total,
    currency: origin.currency,
    fxRate: origin.fxRate,
    paymentMethod: origin.paymentMethod,
    paymentStatus: byTransfer ? "processing" : "pending",
    isPaid: false,
    customerInfo: origin.customerInfo,
    shippingAddress: null,
    idempotencyKey: `renewal:${subscription.id}:${periodIndex}`,
    referral: origin.referral,
    buyerCountry: origin.buyerCountry,
    buyerCompany: origin.buyerCompany,
    buyerTaxId: origin.buyerTaxId,
    taxJurisdiction: origin.taxJurisdiction,
    taxLabel: origin.taxLabel,
    taxRate: origin.taxRate,
    reverseCharge: origin.reverseCharge,
    taxNote: origin.taxNote,
    vatCheckRegister: origin.vatCheckRegister,
    vatCheckStatus: origin.vatCheckStatus,
    vatCheckReference: origin.vatCheckReference,
    vatCheckedAt: origin.vatCheckedAt,
    createdAt: now,
    updatedAt: now,
  });
  if (!orderId) return null;
  await insertOrderItems(tx, [
    {
      orderId,
      productId: subscription.productId,
      productName: item.productName,
      price: subscription.unitPrice,
      pricingUnit: item.pricingUnit,
      quantity: subscription.quantity,
      vendor: item.vendor,
      imageUrl: item.imageUrl,
      sellerId: item.sellerId,
      category: item.category,
      tax: totals.lineTaxes[0] ?? "0",
      taxRate: origin.taxRate,
      shippingState: null,
    },
  ]);
  const claimed = await claimRenewal(tx, {
    subscriptionId: subscription.id,
    periodIndex,
    orderId,
    dueAt: subscription.paidThrough,
    createdAt: now,
  });
  if (!claimed)
    throw new Error(`renewal ${periodIndex} of subscription ${subscription.id} was claimed twice`);
  return {
    orderId,
    total: totals.total,
    byTransfer,
    customerInfo: origin.customerInfo,
    productName: item.productName,
  };
}

/** Invoices a subscription's next renewal: its order, the transfer instructions if paid so, the e-mail. */
async function invoice(
  deps: RenewalDeps,
  tx: Transaction,
  subscription: SubscriptionRow,
  desk: string,
  now: Date,
): Promise<boolean> {
  const made = await makeRenewalOrder(tx, subscription, now);
  if (!made) return false;
  const { orderId, total, customerInfo } = made;
  if (made.byTransfer)
    await openBankTransfer(
      deps,
      tx,
      { id: orderId, userId: subscription.userId, totalAmount: total, customerInfo },
      now,
    );
  await deps.mailer.send(
    {
      to: customerInfo.email,
      ...renewalDueMail({
        fullName: customerInfo.fullName,
        productName: made.productName,
        total,
        dueAt: subscription.paidThrough,
        endsAt: unpaidRenewalEndsAt(subscription.paidThrough),
        deskUrl: desk,
      }),
    },
    { tx },
  );
  return true;
}

/** The renewal job: when an instance starts, then every minute, across all instances. */
export function renewalJob(app: FastifyInstance): JobDefinition {
  return {
    name: "subscriptions-renew",
    cron: "* * * * *",
    runAtStart: true,
    retryLimit: 0,
    retryDelaySeconds: 60,
    describe: () =>
      "Invoice due subscription renewals, remind unpaid ones and end those past their last reminder",
    async run() {
      const run = await runRenewals(bankTransferDepsOf(app), app.clock.now());
      if (run.invoiced + run.reminded + run.ended > 0) app.log.info({ ...run }, "renewals: pass done");
    },
  };
}
