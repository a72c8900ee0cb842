import { and, asc, desc, eq, gte, inArray, lt, sql } from "drizzle-orm";
import type { LedgerAccountKind } from "#domain/ledger";
import type { Database } from "#server/db/client";
import { journalEntries, journalLines, ledgerAccounts } from "#server/db/schema/ledger";
import { orderItems, orders } from "#server/db/schema/orders";
import { bankTransfers, payments } from "#server/db/schema/payments";

const unitsSum = (column: typeof journalLines.amount) =>
  sql<number>`coalesce(sum(${column}), 0)`.mapWith(Number);

/**
 * The period's lines summed per entry kind and account (kind and jurisdiction): every figure of the
 * summary is one or a few of these sums, in units.
 */
export async function periodSums(db: Database, start: Date, end: Date) {
  return db
    .select({
      entryKind: journalEntries.kind,
      accountKind: ledgerAccounts.kind,
      jurisdiction: ledgerAccounts.jurisdiction,
      total: unitsSum(journalLines.amount),
    })
    .from(journalLines)
    .innerJoin(journalEntries, eq(journalEntries.id, journalLines.entryId))
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, journalLines.accountId))
    .where(and(gte(journalEntries.occurredAt, start), lt(journalEntries.occurredAt, end)))
    .groupBy(journalEntries.kind, ledgerAccounts.kind, ledgerAccounts.jurisdiction);
}

/** Every account kind's balance now, summed over owners and jurisdictions. */
export async function balancesByKind(db: Database) {
  return db
    .select({ kind: ledgerAccounts.kind, balance: unitsSum(journalLines.amount) })
    .from(journalLines)
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, journalLines.accountId))
    .groupBy(ledgerAccounts.kind);
}

/**
 * Per order, the money captured (paid provider attempts in cents, bank transfers received) and the
 * clearing debit of its sale entry, both in units; orders with neither are left out. Only orders
 * where the two differ come back as rows, the totals cover all of them.
 */
export async function reconcileOrders(db: Database) {
  const paid = db
    .select({
      orderId: payments.orderId,
      units: sql<number>`sum(${payments.amountCents})::bigint * 100`.as("paid_units"),
    })
    .from(payments)
    .where(eq(payments.state, "paid"))
    .groupBy(payments.orderId)
    .as("paid");
  const transferred = db
    .select({
      orderId: bankTransfers.orderId,
      units: sql<number>`round(sum(${bankTransfers.amount}) * 10000)::bigint`.as("transfer_units"),
    })
    .from(bankTransfers)
    .groupBy(bankTransfers.orderId)
    .as("transferred");
  const booked = db
    .select({
      orderId: journalEntries.orderId,
      units: sql<number>`sum(${journalLines.amount})::bigint`.as("booked_units"),
    })
    .from(journalLines)
    .innerJoin(journalEntries, eq(journalEntries.id, journalLines.entryId))
    .where(and(eq(journalEntries.kind, "sale"), eq(journalLines.accountId, "clearing")))
    .groupBy(journalEntries.orderId)
    .as("booked");
  const captured = sql<number>`(coalesce(${paid.units}, 0) + coalesce(${transferred.units}, 0))`;
  const bookedUnits = sql<number>`coalesce(${booked.units}, 0)`;
  const base = () =>
    db
      .select({
        orderId: orders.id,
        createdAt: orders.createdAt,
        captured: captured.mapWith(Number),
        booked: bookedUnits.mapWith(Number),
      })
      .from(orders)
      .leftJoin(paid, eq(paid.orderId, orders.id))
      .leftJoin(transferred, eq(transferred.orderId, orders.id))
      .leftJoin(booked, eq(booked.orderId, orders.id));
  const [totals, differences] = await Promise.all([
    db
      .select({
        captured: sql<number>`coalesce(sum(${captured}), 0)`.mapWith(Number),
        booked: sql<number>`coalesce(sum(${bookedUnits}), 0)`.mapWith(Number),
      })
      .from(orders)
      .leftJoin(paid, eq(paid.orderId, orders.id))
      .leftJoin(transferred, eq(transferred.orderId, orders.id))
      .leftJoin(booked, eq(booked.orderId, orders.id)),
    base().where(sql`${captured} <> ${bookedUnits}`).orderBy(asc(orders.createdAt), asc(orders.id)),
  ]);
  return { totals: totals[0] ?? { captured: 0, booked: 0 }, differences };
}

/** The period's journal, a row per line, in the order it was booked. */
export async function journalRows(db: Database, start: Date, end: Date) {
  return db
    .select({
      occurredAt: journalEntries.occurredAt,
      kind: journalEntries.kind,
      memo: journalEntries.memo,
      orderId: journalEntries.orderId,
      accountId: journalLines.accountId,
      amount: journalLines.amount,
    })
    .from(journalLines)
    .innerJoin(journalEntries, eq(journalEntries.id, journalLines.entryId))
    .where(and(gte(journalEntries.occurredAt, start), lt(journalEntries.occurredAt, end)))
    .orderBy(asc(journalEntries.occurredAt), asc(journalEntries.id), asc(journalLines.accountId));
}

/** A sale entry's day as `YYYY-MM-DD` in UTC, the calendar the finance periods use. */
const saleDay = sql<string>`to_char(${journalEntries.occurredAt} at time zone 'UTC', 'YYYY-MM-DD')`;

/**
 * Per UTC day of [start, end): how many orders had their sale booked and the sum of the lines in
 * `subtotalKinds` (credits, so negative units). Reads `journal_entries (kind, occurred_at)`.
 */
export async function saleSumsByDay(
  db: Database,
  start: Date,
  end: Date,
  subtotalKinds: LedgerAccountKind[],
) {
  return db
    .select({
      day: saleDay,
      orders: sql<number>`count(distinct ${journalEntries.orderId})`.mapWith(Number),
      total: unitsSum(journalLines.amount),
    })
    .from(journalLines)
    .innerJoin(journalEntries, eq(journalEntries.id, journalLines.entryId))
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, journalLines.accountId))
    .where(
      and(
        eq(journalEntries.kind, "sale"),
        gte(journalEntries.occurredAt, start),
        lt(journalEntries.occurredAt, end),
        inArray(ledgerAccounts.kind, subtotalKinds),
      ),
    )
    .groupBy(saleDay)
    .orderBy(saleDay);
}

/**
 * The products whose sales booked in [start, end) have the largest `subtotalKinds` sums, with the
 * units sold: lines are summed per order item first, so an item's quantity counts once.
 */
export async function topSoldProducts(
  db: Database,
  start: Date,
  end: Date,
  subtotalKinds: LedgerAccountKind[],
  limit: number,
) {
  const perItem = db
    .select({
      orderItemId: journalLines.orderItemId,
      units: sql<number>`sum(${journalLines.amount})`.as("item_units"),
    })
    .from(journalLines)
    .innerJoin(journalEntries, eq(journalEntries.id, journalLines.entryId))
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, journalLines.accountId))
    .where(
      and(
        eq(journalEntries.kind, "sale"),
        gte(journalEntries.occurredAt, start),
        lt(journalEntries.occurredAt, end),
        inArray(ledgerAccounts.kind, subtotalKinds),
      ),
    )
    .groupBy(journalLines.orderItemId)
    .as("per_item");
  const total = sql<number>`sum(${perItem.units})`;
  return (
    db
      .select({
        productId: orderItems.productId,
        name: sql<string>`max(${orderItems.productName})`,
        unitsSold: sql<number>`sum(${orderItems.quantity})`.mapWith(Number),
        total: total.mapWith(Number),
      })
      .from(perItem)
      .innerJoin(orderItems, eq(orderItems.id, perItem.orderItemId))
      .groupBy(orderItems.productId)
      // Credits are negative: the most sold first. The id breaks ties so the list is stable.
      .orderBy(asc(total), desc(orderItems.productId))
      .limit(limit)
  );
}
