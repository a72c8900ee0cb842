import { and, count, desc, eq, exists, inArray, notInArray, sql } from "drizzle-orm";
import type { EarnerRole } from "#domain/earnings";
import type { Database } from "#server/db/client";
import { commissions } from "#server/db/schema/after-sale";
import { journalEntries, journalLines, payouts } from "#server/db/schema/ledger";
import { orderItems, orders } from "#server/db/schema/orders";

/** Sums of bigint units come back from Postgres as strings: read them as whole numbers. */
const units = (expression: ReturnType<typeof sql>) =>
  sql<number>`coalesce(${expression}, 0)`.mapWith((value) => Number(value));

/** The entry kinds that move money out to (or back from) a payee; not earnings, so left out of them. */
const payoutKinds = ["payout", "payout_paid", "payout_failed"];

/** `-sum(lines)` of each of the accounts, by account id: what is owed to the earner on each. */
export async function accountBalances(db: Database, accountIds: string[]) {
  const rows = await db
    .select({ accountId: journalLines.accountId, owed: units(sql`-sum(${journalLines.amount})`) })
    .from(journalLines)
    .where(inArray(journalLines.accountId, accountIds))
    .groupBy(journalLines.accountId);
  return new Map(rows.map((row) => [row.accountId, row.owed]));
}

/**
 * What the payee's payouts of a role took from their available balance, as booked by each
 * `payout:<id>` entry, summed by the payout's status (processing = in transit, paid = arrived).
 */
export async function payoutSums(db: Database, userId: string, role: EarnerRole, availableAccount: string) {
  const rows = await db
    .select({ status: payouts.status, amount: units(sql`sum(${journalLines.amount})`) })
    .from(payouts)
    .innerJoin(
      journalEntries,
      and(eq(journalEntries.payoutId, payouts.id), eq(journalEntries.kind, "payout")),
    )
    .innerJoin(
      journalLines,
      and(eq(journalLines.entryId, journalEntries.id), eq(journalLines.accountId, availableAccount)),
    )
    .where(and(eq(payouts.userId, userId), eq(payouts.role, role)))
    .groupBy(payouts.status);
  return new Map(rows.map((row) => [row.status, row.amount]));
}

/**
 * Refund entries that took money back from the earner's available account (the net had been released,
 * perhaps paid out), newest first: what the refund cost that balance, per entry.
 */
export async function clawbacks(db: Database, availableAccount: string, limit: number) {
  return db
    .select({
      orderId: journalEntries.orderId,
      occurredAt: journalEntries.occurredAt,
      amount: units(sql`-sum(${journalLines.amount})`),
    })
    .from(journalLines)
    .innerJoin(journalEntries, eq(journalEntries.id, journalLines.entryId))
    .where(and(eq(journalLines.accountId, availableAccount), eq(journalEntries.kind, "refund")))
    .groupBy(journalEntries.id)
    .having(sql`sum(${journalLines.amount}) <> 0`)
    .orderBy(desc(journalEntries.occurredAt), desc(journalEntries.id))
    .limit(limit);
}

const releaseBooked = exists(
  sql`(select 1 from ${journalEntries} where ${journalEntries.sourceKey} = 'release:' || ${orderItems.id})`,
);
const saleBooked = exists(
  sql`(select 1 from ${journalEntries} where ${journalEntries.sourceKey} = 'sale:' || ${orderItems.orderId})`,
);
const utcDay = (column: unknown) => sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD')`;

/** A seller's pending nets by the (UTC) day their refund window ends, for items not yet released. */
export async function sellerUpcoming(db: Database, pendingAccount: string, sellerId: string) {
  const day = utcDay(orderItems.settlesAt);
  return db
    .select({ date: day, amount: units(sql`-sum(${journalLines.amount})`) })
    .from(journalLines)
    .innerJoin(orderItems, eq(orderItems.id, journalLines.orderItemId))
    .where(
      and(
        eq(journalLines.accountId, pendingAccount),
        eq(orderItems.sellerId, sellerId),
        sql`${orderItems.settlesAt} is not null`,
        sql`not ${releaseBooked}`,
      ),
    )
    .groupBy(day)
    .having(sql`sum(${journalLines.amount}) <> 0`)
    .orderBy(day);
}

/** A reseller's pending commissions (as the ledger holds them) by the day they become eligible. */
export async function resellerUpcoming(db: Database, pendingAccount: string, resellerId: string) {
  const day = utcDay(commissions.eligibleAt);
  return db
    .select({ date: day, amount: units(sql`-sum(${journalLines.amount})`) })
    .from(journalLines)
    .innerJoin(
      commissions,
      and(
        eq(commissions.orderItemId, journalLines.orderItemId),
        eq(commissions.resellerId, resellerId),
        eq(commissions.status, "pending"),
      ),
    )
    .where(eq(journalLines.accountId, pendingAccount))
    .groupBy(day)
    .having(sql`sum(${journalLines.amount}) <> 0`)
    .orderBy(day);
}

const utcMonth = (column: unknown) => sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM')`;

/**
 * What the earner's accounts gained per month from everything but payouts: sale nets and commissions
 * less refunds taken back (moves between their own pending and available cancel out).
 */
export async function netByMonth(db: Database, accountIds: string[], since: Date) {
  const month = utcMonth(journalEntries.occurredAt);
  return db
    .select({ month, net: units(sql`-sum(${journalLines.amount})`) })
    .from(journalLines)
    .innerJoin(journalEntries, eq(journalEntries.id, journalLines.entryId))
    .where(
      and(
        inArray(journalLines.accountId, accountIds),
        notInArray(journalEntries.kind, payoutKinds),
        sql`${journalEntries.occurredAt} >= ${since}`,
      ),
    )
    .groupBy(month);
}

/** The subtotal of the seller's items sold per month, by the month their sale was booked. */
export async function sellerGrossByMonth(db: Database, sellerId: string, since: Date) {
  const month = utcMonth(journalEntries.occurredAt);
  return db
    .select({ month, gross: units(sql`sum(round(${orderItems.price} * ${orderItems.quantity} * 10000))`) })
    .from(orderItems)
    .innerJoin(journalEntries, sql`${journalEntries.sourceKey} = 'sale:' || ${orderItems.orderId}`)
    .where(and(eq(orderItems.sellerId, sellerId), sql`${journalEntries.occurredAt} >= ${since}`))
    .groupBy(month);
}

/** The commissions credited to a reseller by sales, per month: a reseller's gross. */
export async function resellerGrossByMonth(db: Database, pendingAccount: string, since: Date) {
  const month = utcMonth(journalEntries.occurredAt);
  return db
    .select({ month, gross: units(sql`-sum(${journalLines.amount})`) })
    .from(journalLines)
    .innerJoin(journalEntries, eq(journalEntries.id, journalLines.entryId))
    .where(
      and(
        eq(journalLines.accountId, pendingAccount),
        eq(journalEntries.kind, "sale"),
        sql`${journalEntries.occurredAt} >= ${since}`,
      ),
    )
    .groupBy(month);
}

/** `-sum` of an item's lines on accounts matching `account` in entries of the given kinds. */
function itemSum(account: ReturnType<typeof sql>, kinds: string[]) {
  return units(sql`(select -sum(l.amount) from ${journalLines} l
    join ${journalEntries} e on e.id = l.entry_id
    where l.order_item_id = ${orderItems.id} and ${account}
      and e.kind in (${sql.join(
        kinds.map((kind) => sql`${kind}`),
        sql`, `,
      )}))`);
}

const mine = (sellerId: string) => and(eq(orderItems.sellerId, sellerId), saleBooked);

/**
 * A seller's sold items of confirmed orders, newest first, each with its breakdown from the ledger:
 * the sale's fee, tax and commission lines for the item, and the net that reached the seller (a
 * rejected commission comes back to the seller, so it counts with the sale).
 */
export async function saleLines(
  db: Database,
  sellerId: string,
  sellerAccounts: string[],
  window: { limit: number; offset: number },
) {
  const soldAt = sql<Date>`(select ${journalEntries.occurredAt} from ${journalEntries} where ${journalEntries.sourceKey} = 'sale:' || ${orderItems.orderId})`;
  const onMine = sql`l.account_id in (${sql.join(
    sellerAccounts.map((id) => sql`${id}`),
    sql`, `,
  )})`;
  return db
    .select({
      orderItemId: orderItems.id,
      orderId: orderItems.orderId,
      soldAt: sql<string>`${soldAt}`.mapWith((value) => new Date(value).toISOString()),
      productName: orderItems.productName,
      quantity: orderItems.quantity,
      price: orderItems.price,
      feeRate: orderItems.feeRate,
      fee: itemSum(sql`l.account_id = 'platform_fees'`, ["sale"]),
      commission: itemSum(sql`l.account_id like 'reseller_pending:%'`, ["sale", "commission_rejected"]),
      tax: itemSum(sql`l.account_id like 'tax:%'`, ["sale"]),
      taxLabel: orders.taxLabel,
      net: itemSum(onMine, ["sale", "commission_rejected"]),
      refunded: sql<boolean>`exists(select 1 from ${journalEntries} where ${journalEntries.kind} = 'refund' and ${journalEntries.orderItemId} = ${orderItems.id})`,
      released: sql<boolean>`${releaseBooked}`,
      settlesAt: orderItems.settlesAt,
    })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .where(mine(sellerId))
    .orderBy(desc(soldAt), desc(orderItems.id))
    .limit(window.limit)
    .offset(window.offset);
}

/** How many items the seller sold in confirmed orders, in how many orders, and their subtotal. */
export async function saleTotals(db: Database, sellerId: string) {
  const [row] = await db
    .select({
      lines: count(),
      orders: sql<number>`count(distinct ${orderItems.orderId})`.mapWith(Number),
      gross: units(sql`sum(round(${orderItems.price} * ${orderItems.quantity} * 10000))`),
    })
    .from(orderItems)
    .where(mine(sellerId));
  return row ?? { lines: 0, orders: 0, gross: 0 };
}

export async function payoutPage(db: Database, userId: string, window: { limit: number; offset: number }) {
  const where = eq(payouts.userId, userId);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(payouts)
      .where(where)
      .orderBy(desc(payouts.createdAt), desc(payouts.id))
      .limit(window.limit)
      .offset(window.offset),
    db.select({ n: count() }).from(payouts).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

/**
 * The orders a seller received: those with one of their items whose sale is booked (the orders
 * `saleTotals` counts), newest first, one page; each with only the seller's own items.
 */
export async function receivedOrders(
  db: Database,
  sellerId: string,
  window: { limit: number; offset: number },
) {
  const received = exists(
    db
      .select({ one: sql`1` })
      .from(orderItems)
      .where(and(eq(orderItems.orderId, orders.id), eq(orderItems.sellerId, sellerId), saleBooked)),
  );
  const [rows, [counted]] = await Promise.all([
    db
      .select({
        id: orders.id,
        createdAt: orders.createdAt,
        buyerCompany: orders.buyerCompany,
        customerInfo: orders.customerInfo,
      })
      .from(orders)
      .where(received)
      .orderBy(desc(orders.createdAt), desc(orders.id))
      .limit(window.limit)
      .offset(window.offset),
    db.select({ n: count() }).from(orders).where(received),
  ]);
  const items =
    rows.length === 0
      ? []
      : await db
          .select()
          .from(orderItems)
          .where(
            and(
              inArray(
                orderItems.orderId,
                rows.map((row) => row.id),
              ),
              eq(orderItems.sellerId, sellerId),
            ),
          )
          .orderBy(orderItems.productName, orderItems.id);
  return { rows, items, total: counted?.n ?? 0 };
}
