import { and, count, desc, eq, inArray, sql } from "drizzle-orm";
import { openRefundStatuses } from "#domain/refunds";
import type { Db, Transaction } from "#server/db/client";
import { refundRequests } from "#server/db/schema/after-sale";
import { user } from "#server/db/schema/auth";
import { journalLines, ledgerAccounts, payoutBatches, payouts } from "#server/db/schema/ledger";
import { orderItems } from "#server/db/schema/orders";
import { payoutAccounts } from "#server/db/schema/payouts";

export type PayoutRow = typeof payouts.$inferSelect;

/** Every earner's available balance (credit balance, so minus the lines' sum), in money units. */
export async function availableBalances(db: Db) {
  return db
    .select({
      userId: ledgerAccounts.ownerId,
      kind: ledgerAccounts.kind,
      available: sql<number>`-coalesce(sum(${journalLines.amount}), 0)`.mapWith(Number),
      name: user.name,
      email: user.email,
    })
    .from(ledgerAccounts)
    .innerJoin(journalLines, eq(journalLines.accountId, ledgerAccounts.id))
    .innerJoin(user, eq(user.id, ledgerAccounts.ownerId))
    .where(inArray(ledgerAccounts.kind, ["seller_available", "reseller_available"]))
    .groupBy(ledgerAccounts.id, user.id)
    .having(sql`coalesce(sum(${journalLines.amount}), 0) <> 0`)
    .orderBy(sql`-coalesce(sum(${journalLines.amount}), 0) desc`);
}

/** One earner's available balance of a role, read in the caller's (batch) transaction. */
export async function availableOf(db: Db, accountId: string): Promise<number> {
  const [row] = await db
    .select({ available: sql<number>`-coalesce(sum(${journalLines.amount}), 0)`.mapWith(Number) })
    .from(journalLines)
    .where(eq(journalLines.accountId, accountId));
  return row?.available ?? 0;
}

/**
 * Per seller, what their available balance holds of items whose refund request is still open: nets
 * released before the request was made (the release waits for an open request, decision 0010). A
 * payout leaves it in the balance until the request is decided.
 */
export async function heldForOpenRefunds(db: Db, sellerIds: string[]): Promise<Map<string, number>> {
  if (sellerIds.length === 0) return new Map();
  const rows = await db
    .select({
      sellerId: orderItems.sellerId,
      held: sql<number>`-coalesce(sum(${journalLines.amount}), 0)`.mapWith(Number),
    })
    .from(journalLines)
    .innerJoin(orderItems, eq(orderItems.id, journalLines.orderItemId))
    .innerJoin(
      refundRequests,
      and(
        eq(refundRequests.orderItemId, orderItems.id),
        inArray(refundRequests.status, [...openRefundStatuses]),
      ),
    )
    .where(
      and(
        inArray(orderItems.sellerId, sellerIds),
        sql`${journalLines.accountId} = 'seller_available:' || ${orderItems.sellerId}`,
      ),
    )
    .groupBy(orderItems.sellerId);
  return new Map(rows.flatMap((row) => (row.sellerId ? [[row.sellerId, row.held] as const] : [])));
}

/** One batch at a time: a second approval waits, then sees the balances the first one left. */
export async function lockBatches(tx: Transaction): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('stackbay:payout-batch'))`);
}

export async function insertBatch(tx: Transaction, createdBy: string, minimum: string, now: Date) {
  const [row] = await tx.insert(payoutBatches).values({ createdBy, minimum, createdAt: now }).returning();
  if (!row) throw new Error("payout batch insert returned nothing");
  return row;
}

export async function insertPayout(tx: Transaction, values: typeof payouts.$inferInsert) {
  const [row] = await tx.insert(payouts).values(values).returning();
  if (!row) throw new Error("payout insert returned nothing");
  return row;
}

export async function lockPayout(tx: Transaction, id: string) {
  const [row] = await tx.select().from(payouts).where(eq(payouts.id, id)).for("update");
  return row ?? null;
}

export async function findPayout(db: Db, id: string) {
  const [row] = await db.select().from(payouts).where(eq(payouts.id, id));
  return row ?? null;
}

export async function updatePayout(
  tx: Transaction,
  id: string,
  values: Partial<typeof payouts.$inferInsert>,
) {
  const [row] = await tx.update(payouts).set(values).where(eq(payouts.id, id)).returning();
  if (!row) throw new Error("payout update returned nothing");
  return row;
}

const batchFigures = {
  id: payoutBatches.id,
  createdAt: payoutBatches.createdAt,
  createdBy: user.email,
  total: sql<string>`coalesce(sum(${payouts.amount}), 0)`,
  count: sql<number>`count(${payouts.id})`.mapWith(Number),
  paid: sql<number>`count(*) filter (where ${payouts.status} = 'paid')`.mapWith(Number),
  processing: sql<number>`count(*) filter (where ${payouts.status} = 'processing')`.mapWith(Number),
  failed: sql<number>`count(*) filter (where ${payouts.status} = 'failed')`.mapWith(Number),
};

export async function listBatches(db: Db, page: number, pageSize: number) {
  const [rows, [counted]] = await Promise.all([
    db
      .select(batchFigures)
      .from(payoutBatches)
      .leftJoin(payouts, eq(payouts.batchId, payoutBatches.id))
      .leftJoin(user, eq(user.id, payoutBatches.createdBy))
      .groupBy(payoutBatches.id, user.email)
      .orderBy(desc(payoutBatches.createdAt), desc(payoutBatches.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ n: count() }).from(payoutBatches),
  ]);
  return { rows, total: counted?.n ?? 0 };
}

export async function findBatch(db: Db, id: string) {
  const [row] = await db
    .select(batchFigures)
    .from(payoutBatches)
    .leftJoin(payouts, eq(payouts.batchId, payoutBatches.id))
    .leftJoin(user, eq(user.id, payoutBatches.createdBy))
    .where(eq(payoutBatches.id, id))
    .groupBy(payoutBatches.id, user.email);
  return row ?? null;
}

export async function batchPayouts(db: Db, batchId: string) {
  return db
    .select({ payout: payouts, name: user.name, email: user.email })
    .from(payouts)
    .innerJoin(user, eq(user.id, payouts.userId))
    .where(eq(payouts.batchId, batchId))
    .orderBy(desc(payouts.amount), payouts.id);
}

export async function findPayoutAccounts(db: Db, userIds: string[]) {
  if (userIds.length === 0) return [];
  return db.select().from(payoutAccounts).where(inArray(payoutAccounts.userId, userIds));
}
