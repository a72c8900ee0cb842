import type { FastifyInstance } from "fastify";
import { computeTotals, lineTotal } from "#domain/money";
import { methodLabel } from "#domain/payment-methods";
import { absoluteUrl, paths } from "#domain/routes";
import {
  monthlyAmount,
  monthStartOf,
  nextReminderAt,
  subscriptionFigures,
} from "#domain/subscription-metrics";
import type {
  AdminCancelAnswer,
  AdminLiveSubscription,
  AdminSubscriptionReport,
  AdminSubscriptionsQuery,
  DunningEntry,
  SellerLiveSubscription,
  SellerPastDue,
  SellerSubscriptionReport,
  SubscriptionReminderAnswer,
  SubscriptionRetryAnswer,
} from "#domain/subscription-report-schemas";
import { type BillingInterval, subscriptionStatusAt, unpaidRenewalEndsAt } from "#domain/subscriptions";
import type { Database } from "#server/db/client";
import { publicUrl } from "#server/env";
import { Conflict, NotFound } from "#server/errors";
import { type AuditActor, recordAudit } from "#server/lib/audit";
import type { Mailer } from "#server/mail/mailer";
import { subscriptionCancelledMail } from "#server/mail/renewal-mail";
import {
  chargeOrderWithSavedMethod,
  type PaymentDeps,
  paymentDepsOf,
} from "#server/modules/payments/service";
import {
  figureFacts,
  type ListedSubscription,
  livePage,
  lockSubscription,
  pastDuePage,
  type ReportFilter,
  type ReportScope,
} from "#server/modules/subscription-reports/repository";
import {
  effectiveMethodsOf,
  licenseKeysOf,
  unpaidRenewalsOf,
} from "#server/modules/subscriptions/repository";
import {
  buyerOfSubscription,
  endSubscriptionWith,
  renewalReminderOf,
} from "#server/modules/subscriptions/service";

/** What the admin's actions need: the database, mail and the site's address for the renewal desk's link. */
export type SubscriptionReportDeps = {
  db: Database;
  mailer: Mailer;
  origin: string;
  /** An admin's retry charges the saved method as the renewal job does. */
  payments: PaymentDeps;
};

export function subscriptionReportDepsOf(app: FastifyInstance): SubscriptionReportDeps {
  return {
    db: app.database.db,
    mailer: app.mailer,
    origin: publicUrl(app.env),
    payments: paymentDepsOf(app),
  };
}

/** A buyer as a seller may know them: a first name, nothing that reaches them. */
const buyerFirstName = (row: ListedSubscription) => row.buyerFirstName.trim() || "A buyer";

/** The unpaid renewal of each listed subscription, and what each one's next renewal costs with tax. */
async function pastDueItems(db: Database, rows: ListedSubscription[]) {
  const ids = rows.map((row) => row.subscription.id);
  const unpaid = await unpaidRenewalsOf(db, ids);
  const methods = await effectiveMethodsOf(db, ids);
  return rows.map((row) => {
    const { subscription: s } = row;
    const renewal = unpaid.get(s.id);
    // Invoiced a few days before it fell due; until then (or if its original order is gone) the price at
    // the tax of the order that started it, as the buyer's desk shows it.
    const amountDue =
      renewal?.total ?? computeTotals([{ price: s.unitPrice, quantity: s.quantity }], row.taxRate).total;
    const dueAt = renewal?.dueAt ?? s.paidThrough;
    const remindersSent = renewal?.remindersSent ?? 0;
    const method = methods.get(s.id);
    return {
      row,
      renewalOrderId: renewal?.orderId ?? null,
      chargedTo: method && method.kind !== "bank_transfer" && !method.declinedAt ? methodLabel(method) : null,
      item: {
        subscriptionId: s.id,
        productId: s.productId,
        productName: row.productName,
        interval: s.interval as BillingInterval,
        quantity: s.quantity,
        amountDue,
        dueAt: dueAt.toISOString(),
        remindersSent,
        nextReminderAt: nextReminderAt(dueAt, remindersSent)?.toISOString() ?? null,
        endsAt: unpaidRenewalEndsAt(dueAt).toISOString(),
      },
    };
  });
}

function liveItem(row: ListedSubscription, now: Date) {
  const { subscription: s } = row;
  const status = subscriptionStatusAt(s, now);
  if (status === "ended") throw new Error(`subscription ${s.id} is listed as live but has ended`);
  const terms = { interval: s.interval as BillingInterval, unitPrice: s.unitPrice, quantity: s.quantity };
  return {
    subscriptionId: s.id,
    productId: s.productId,
    productName: row.productName,
    interval: terms.interval,
    quantity: s.quantity,
    status,
    periodAmount: lineTotal(s.unitPrice, s.quantity),
    monthlyAmount: monthlyAmount(terms),
    startedAt: s.anchor.toISOString(),
    renewsAt: status === "active" ? s.paidThrough.toISOString() : null,
    endsAt:
      status === "cancelling"
        ? s.paidThrough.toISOString()
        : status === "past_due"
          ? unpaidRenewalEndsAt(s.paidThrough).toISOString()
          : null,
  };
}

async function report(
  db: Database,
  scope: ReportScope,
  filter: ReportFilter,
  pages: { page: number; duePage: number },
  now: Date,
) {
  const [facts, due, live] = await Promise.all([
    figureFacts(db, scope, monthStartOf(now)),
    pastDuePage(db, scope, filter, now, pages.duePage),
    livePage(db, scope, filter, now, pages.page),
  ]);
  return { figures: subscriptionFigures(facts, now), due, dueItems: await pastDueItems(db, due.rows), live };
}

/**
 * A seller's subscription view: the figures of the subscriptions to their products (those whose order
 * item they sold), their past-due renewals and the subscriptions that have not ended. A buyer appears by
 * first name only.
 */
export async function sellerSubscriptionReport(
  db: Database,
  sellerId: string,
  pages: { page: number; duePage: number },
  now: Date,
): Promise<SellerSubscriptionReport> {
  const { figures, due, dueItems, live } = await report(db, { sellerId }, {}, pages, now);
  const { rows: liveRows, ...livePaging } = live;
  const { rows: _dueRows, ...duePaging } = due;
  return {
    figures,
    pastDue: {
      ...duePaging,
      items: dueItems.map(({ row, item }): SellerPastDue => ({ ...item, buyer: buyerFirstName(row) })),
    },
    live: {
      ...livePaging,
      items: liveRows.map(
        (row): SellerLiveSubscription => ({ ...liveItem(row, now), buyer: buyerFirstName(row) }),
      ),
    },
  };
}

/** The admin's view: the platform's figures, the dunning queue and the subscriptions that have not ended. */
export async function adminSubscriptionReport(
  db: Database,
  query: AdminSubscriptionsQuery,
  now: Date,
): Promise<AdminSubscriptionReport> {
  const { figures, due, dueItems, live } = await report(
    db,
    "platform",
    { q: query.q || undefined, status: query.status },
    query,
    now,
  );
  const people = (row: ListedSubscription) => ({
    buyerName: row.buyerName,
    buyerEmail: row.buyerEmail,
    vendor: row.vendor,
    sellerEmail: row.sellerEmail,
  });
  const { rows: liveRows, ...livePaging } = live;
  const { rows: _dueRows, ...duePaging } = due;
  return {
    figures,
    dunning: {
      ...duePaging,
      items: dueItems.map(
        ({ row, item, renewalOrderId, chargedTo }): DunningEntry => ({
          ...item,
          ...people(row),
          renewalOrderId,
          chargedTo,
        }),
      ),
    },
    live: {
      ...livePaging,
      items: liveRows.map((row): AdminLiveSubscription => ({ ...liveItem(row, now), ...people(row) })),
    },
  };
}

const notFound = () => new NotFound("Subscription not found.", "SUBSCRIPTION_NOT_FOUND");
const ended = () => new Conflict("This subscription has already ended.", "SUBSCRIPTION_ENDED");

/**
 * Sends the payment reminder of a past-due renewal again, now: the buyer pays it from the e-mail (or
 * fixes its payment method). The renewal job's own reminders and retries go on as before. Audited.
 */
export async function remindNow(
  deps: SubscriptionReportDeps,
  actor: AuditActor,
  id: string,
  now: Date,
): Promise<SubscriptionReminderAnswer> {
  const desk = absoluteUrl(deps.origin, paths.dashboard("subscriptions"));
  return deps.db.transaction(async (tx) => {
    const found = await lockSubscription(tx, id);
    if (!found) throw notFound();
    const { subscription, productName } = found;
    const status = subscriptionStatusAt(subscription, now);
    if (status === "ended") throw ended();
    const renewal = (await unpaidRenewalsOf(tx, [subscription.id])).get(subscription.id);
    const reminder = await renewalReminderOf(tx, subscription, desk);
    if (status !== "past_due" || !renewal || renewal.dueAt > now || !reminder)
      throw new Conflict(
        "This subscription has no unpaid renewal past its due date.",
        "RENEWAL_NOT_PAST_DUE",
      );
    await deps.mailer.send(reminder, { tx });
    await recordAudit(tx, actor, {
      action: "update",
      entityType: "subscription",
      entityId: subscription.id,
      entityLabel: productName,
      before: { paymentReminderSentAt: null },
      after: { paymentReminderSentAt: now, renewalOrderId: renewal.orderId },
    });
    return { sentTo: reminder.to, sentAt: now.toISOString() };
  });
}

/**
 * Charges a past-due renewal's saved card or PayPal account again, now, as the renewal job does on a
 * retry day (a new attempt, its order and attempt as the idempotency key; a hard decline marks the
 * method). Audited with what it came to. 404 PAYMENT_METHOD_NOT_FOUND when no saved method can be
 * charged: the reminder is the only retry then.
 */
export async function retryNow(
  deps: SubscriptionReportDeps,
  actor: AuditActor,
  id: string,
  now: Date,
): Promise<SubscriptionRetryAnswer> {
  const { subscription, productName, renewal, method } = await deps.db.transaction(async (tx) => {
    const found = await lockSubscription(tx, id);
    if (!found) throw notFound();
    const { subscription } = found;
    const status = subscriptionStatusAt(subscription, now);
    if (status === "ended") throw ended();
    const renewal = (await unpaidRenewalsOf(tx, [subscription.id])).get(subscription.id);
    if (status !== "past_due" || !renewal || renewal.dueAt > now)
      throw new Conflict(
        "This subscription has no unpaid renewal past its due date.",
        "RENEWAL_NOT_PAST_DUE",
      );
    const method = (await effectiveMethodsOf(tx, [subscription.id])).get(subscription.id);
    if (!method || method.kind === "bank_transfer" || method.declinedAt)
      throw new NotFound(
        "This subscription has no saved card or PayPal account that can be charged. Send the buyer a reminder instead.",
        "PAYMENT_METHOD_NOT_FOUND",
      );
    return { ...found, renewal, method };
  });
  const charged = await chargeOrderWithSavedMethod(deps.payments, renewal.orderId, method);
  const answer: SubscriptionRetryAnswer = {
    charged: charged.state === "skipped" ? "pending" : charged.state,
    reason: charged.state === "declined" ? charged.reason : null,
  };
  await deps.db.transaction((tx) =>
    recordAudit(tx, actor, {
      action: "update",
      entityType: "subscription",
      entityId: subscription.id,
      entityLabel: productName,
      before: { renewalChargedAt: null },
      after: { renewalChargedAt: now, renewalOrderId: renewal.orderId, charged: answer.charged },
    }),
  );
  return answer;
}

/**
 * Ends a subscription now, as an admin: ended as cancelled, its unpaid renewal order cancelled so it can
 * no longer be paid, its licences revoked, and the buyer told. Nothing is refunded here (a paid period is
 * refunded through the refund flow). Audited with the state before and after.
 */
export async function cancelNow(
  deps: SubscriptionReportDeps,
  actor: AuditActor,
  id: string,
  now: Date,
): Promise<AdminCancelAnswer> {
  return deps.db.transaction(async (tx) => {
    const found = await lockSubscription(tx, id);
    if (!found) throw notFound();
    const { subscription, productName } = found;
    const status = subscriptionStatusAt(subscription, now);
    if (status === "ended") throw ended();
    const [unpaid, keys, buyer] = await Promise.all([
      unpaidRenewalsOf(tx, [subscription.id]).then((due) => due.get(subscription.id)),
      licenseKeysOf(tx, [subscription.orderItemId]).then((k) => k.get(subscription.orderItemId) ?? []),
      buyerOfSubscription(tx, subscription),
    ]);
    const { cancelledOrderId } = await endSubscriptionWith(tx, subscription, now, "cancelled", now);
    await recordAudit(tx, actor, {
      action: "update",
      entityType: "subscription",
      entityId: subscription.id,
      entityLabel: productName,
      before: {
        status,
        endedAt: null,
        endReason: null,
        unpaidRenewalOrderId: unpaid?.orderId ?? null,
        activeLicenses: keys.length,
      },
      after: {
        status: "ended",
        endedAt: now,
        endReason: "cancelled",
        unpaidRenewalOrderId: null,
        cancelledRenewalOrderId: cancelledOrderId,
        activeLicenses: 0,
      },
    });
    if (buyer?.email)
      await deps.mailer.send(
        {
          to: buyer.email,
          ...subscriptionCancelledMail({
            fullName: buyer.fullName,
            productName: buyer.productName,
            renewalCancelled: cancelledOrderId !== null,
            hadLicenses: keys.length > 0,
            contactUrl: absoluteUrl(deps.origin, paths.contact()),
          }),
        },
        { tx },
      );
    return {
      subscriptionId: subscription.id,
      endedAt: now.toISOString(),
      cancelledRenewalOrderId: cancelledOrderId,
      revokedLicenses: keys.length,
    };
  });
}
