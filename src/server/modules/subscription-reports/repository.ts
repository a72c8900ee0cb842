import { and, asc, count, desc, eq, gt, gte, ilike, isNull, lte, not, or, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { SubscriptionFacts, SubscriptionTerms } from "#domain/subscription-metrics";
import {
  type LiveSubscriptionStatus,
  SUBSCRIPTION_REPORT_PAGE_SIZE,
} from "#domain/subscription-report-schemas";
import type { Db, Transaction } from "#server/db/client";
import { user } from "#server/db/schema/auth";
import { orderItems, orders } from "#server/db/schema/orders";
import { subscriptionChanges, subscriptions } from "#server/db/schema/subscriptions";
import { containsPattern } from "#server/lib/like";

/** The account that sells a subscribed product (the buyer's is `user`). */
const sellerAccount = alias(user, "seller_account");

/** Whose subscriptions a report reads: one seller's (their products' order items), or every one. */
export type ReportScope = { sellerId: string } | "platform";

/** What the lists narrow to: an admin's search, the live list's status. */
export type ReportFilter = { q?: string; status?: LiveSubscriptionStatus };

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function scoped(scope: ReportScope): SQL | undefined {
  return scope === "platform" ? undefined : eq(orderItems.sellerId, scope.sellerId);
}

/** A subscription id, or part of the buyer's e-mail or name or of the product's name, any case. */
function search(q: string | undefined): SQL | undefined {
  if (!q) return undefined;
  if (uuidPattern.test(q)) return eq(subscriptions.id, q.toLowerCase());
  const pattern = containsPattern(q);
  return or(ilike(user.email, pattern), ilike(user.name, pattern), ilike(orderItems.productName, pattern));
}

/**
 * The facts of every subscription of the scope that can count in the figures of the month from
 * `monthStart`: those not ended, and those ended since, each with the terms it had before its first
 * change of plan or seats applied this month (decision 0027), if one was.
 */
export async function figureFacts(
  db: Db,
  scope: ReportScope,
  monthStart: Date,
): Promise<SubscriptionFacts[]> {
  const rows = await db
    .select({
      interval: subscriptions.interval,
      unitPrice: subscriptions.unitPrice,
      quantity: subscriptions.quantity,
      startedAt: subscriptions.createdAt,
      endedAt: subscriptions.endedAt,
      endReason: subscriptions.endReason,
      paidThrough: subscriptions.paidThrough,
      cancelAtPeriodEnd: subscriptions.cancelAtPeriodEnd,
      periodsPaid: subscriptions.periodsPaid,
      trialEndsAt: subscriptions.trialEndsAt,
      termsAtMonthStart: sql<SubscriptionTerms | null>`(select json_build_object('interval', c.from_interval,
          'unitPrice', c.from_unit_price::text, 'quantity', c.from_quantity)
        from ${subscriptionChanges} c
        where c.subscription_id = ${subscriptions.id} and c.status = 'applied'
          and c.applied_at >= ${monthStart.toISOString()}::timestamptz
        order by c.applied_at limit 1)`,
    })
    .from(subscriptions)
    .innerJoin(orderItems, eq(orderItems.id, subscriptions.orderItemId))
    .where(and(scoped(scope), or(isNull(subscriptions.endedAt), gte(subscriptions.endedAt, monthStart))));
  return rows;
}

/** Past due at `now`: not ended, not cancelled for its period's end, and that period has ended unpaid. */
const pastDueAt = (now: Date) =>
  and(
    isNull(subscriptions.endedAt),
    eq(subscriptions.cancelAtPeriodEnd, false),
    lte(subscriptions.paidThrough, now),
  );

/** Not ended at `now` (see `subscriptionStatusAt`), in one status of it when `status` is given. */
function liveAt(now: Date, status: LiveSubscriptionStatus | undefined): SQL | undefined {
  const notEnded = and(
    isNull(subscriptions.endedAt),
    not(and(eq(subscriptions.cancelAtPeriodEnd, true), lte(subscriptions.paidThrough, now)) as SQL),
  );
  switch (status) {
    case undefined:
      return notEnded;
    case "past_due":
      return pastDueAt(now);
    case "active":
      return and(notEnded, eq(subscriptions.cancelAtPeriodEnd, false), gt(subscriptions.paidThrough, now));
    case "cancelling":
      return and(notEnded, eq(subscriptions.cancelAtPeriodEnd, true));
  }
}

/** What each list row shows: the subscription, its product as bought, its buyer and its seller. */
const listColumns = {
  subscription: subscriptions,
  productName: orderItems.productName,
  vendor: orderItems.vendor,
  buyerFirstName: user.firstName,
  buyerName: user.name,
  buyerEmail: user.email,
  sellerEmail: sellerAccount.email,
  /** The tax rate of the order that started it: what its renewal is invoiced at. */
  taxRate: orders.taxRate,
};

async function page(db: Db, where: SQL | undefined, order: SQL[], pageNumber: number) {
  const from = () =>
    db
      .select(listColumns)
      .from(subscriptions)
      .innerJoin(orderItems, eq(orderItems.id, subscriptions.orderItemId))
      .innerJoin(orders, eq(orders.id, subscriptions.orderId))
      .innerJoin(user, eq(user.id, subscriptions.userId))
      .leftJoin(sellerAccount, eq(sellerAccount.id, orderItems.sellerId));
  const [rows, [counted]] = await Promise.all([
    from()
      .where(where)
      .orderBy(...order)
      .limit(SUBSCRIPTION_REPORT_PAGE_SIZE)
      .offset((pageNumber - 1) * SUBSCRIPTION_REPORT_PAGE_SIZE),
    db
      .select({ n: count() })
      .from(subscriptions)
      .innerJoin(orderItems, eq(orderItems.id, subscriptions.orderItemId))
      .innerJoin(user, eq(user.id, subscriptions.userId))
      .where(where),
  ]);
  return { rows, total: counted?.n ?? 0, page: pageNumber, pageSize: SUBSCRIPTION_REPORT_PAGE_SIZE };
}

export type ListedSubscription = Awaited<ReturnType<typeof page>>["rows"][number];

/** One page of the scope's past-due subscriptions, the longest overdue first. */
export async function pastDuePage(
  db: Db,
  scope: ReportScope,
  filter: ReportFilter,
  now: Date,
  pageNumber: number,
) {
  return page(
    db,
    and(scoped(scope), search(filter.q), pastDueAt(now)),
    [asc(subscriptions.paidThrough), asc(subscriptions.id)],
    pageNumber,
  );
}

/** One page of the scope's subscriptions that have not ended, the newest first. */
export async function livePage(
  db: Db,
  scope: ReportScope,
  filter: ReportFilter,
  now: Date,
  pageNumber: number,
) {
  return page(
    db,
    and(scoped(scope), search(filter.q), liveAt(now, filter.status)),
    [desc(subscriptions.anchor), desc(subscriptions.id)],
    pageNumber,
  );
}

/** A subscription, locked for an admin's action on it; null when there is none with this id. */
export async function lockSubscription(tx: Transaction, id: string) {
  const [row] = await tx
    .select({ subscription: subscriptions, productName: orderItems.productName })
    .from(subscriptions)
    .innerJoin(orderItems, eq(orderItems.id, subscriptions.orderItemId))
    .where(eq(subscriptions.id, id))
    .for("update", { of: subscriptions });
  return row ?? null;
}
