import { and, eq, inArray, isNotNull, lte, notExists, or, sql } from "drizzle-orm";
import type { LedgerAccountKind } from "#domain/ledger";
import { openRefundStatuses } from "#domain/refunds";
import type { Database, Db, Transaction } from "#server/db/client";
import { commissions, refundRequests } from "#server/db/schema/after-sale";
import { feeRules, journalEntries, journalLines, ledgerAccounts } from "#server/db/schema/ledger";
import { orderItems, orders } from "#server/db/schema/orders";

export type AccountRow = typeof ledgerAccounts.$inferInsert;
export type EntryRow = typeof journalEntries.$inferInsert;
export type LineRow = Omit<typeof journalLines.$inferInsert, "entryId">;

export async function ensureAccounts(tx: Transaction, accounts: AccountRow[]): Promise<void> {
  if (accounts.length === 0) return;
  await tx.insert(ledgerAccounts).values(accounts).onConflictDoNothing();
}

/** Inserts the entry unless its cause was booked already; the new entry's id, or null for a replay. */
export async function insertEntryOnce(tx: Transaction, entry: EntryRow): Promise<string | null> {
  const [row] = await tx
    .insert(journalEntries)
    .values(entry)
    .onConflictDoNothing({ target: journalEntries.sourceKey })
    .returning({ id: journalEntries.id });
  return row?.id ?? null;
}

export async function insertLines(tx: Transaction, entryId: string, lines: LineRow[]): Promise<void> {
  await tx.insert(journalLines).values(lines.map((line) => ({ ...line, entryId })));
}

export async function entryExists(db: Db, sourceKey: string): Promise<boolean> {
  const [row] = await db
    .select({ id: journalEntries.id })
    .from(journalEntries)
    .where(eq(journalEntries.sourceKey, sourceKey));
  return Boolean(row);
}

/** Balances (sum of lines, debit positive) of the accounts of the given kinds belonging to `ownerId`. */
export async function ownerBalances(db: Db, ownerId: string, kinds: readonly LedgerAccountKind[]) {
  return db
    .select({
      kind: ledgerAccounts.kind,
      balance: sql<number>`coalesce(sum(${journalLines.amount}), 0)`.mapWith(Number),
    })
    .from(ledgerAccounts)
    .leftJoin(journalLines, eq(journalLines.accountId, ledgerAccounts.id))
    .where(and(eq(ledgerAccounts.ownerId, ownerId), inArray(ledgerAccounts.kind, [...kinds])))
    .groupBy(ledgerAccounts.kind);
}

/** What left an owner's available account through payouts and came back from failed ones, per kind. */
export async function paidOut(db: Db, accountIds: string[]) {
  if (accountIds.length === 0) return 0;
  const [row] = await db
    .select({ paid: sql<number>`coalesce(sum(${journalLines.amount}), 0)`.mapWith(Number) })
    .from(journalLines)
    .innerJoin(journalEntries, eq(journalEntries.id, journalLines.entryId))
    .where(
      and(
        inArray(journalLines.accountId, accountIds),
        inArray(journalEntries.kind, ["payout", "payout_failed"]),
      ),
    );
  return row?.paid ?? 0;
}

/** Every account's balance, for the operator's books. */
export async function allBalances(db: Db) {
  return db
    .select({
      id: ledgerAccounts.id,
      kind: ledgerAccounts.kind,
      ownerId: ledgerAccounts.ownerId,
      jurisdiction: ledgerAccounts.jurisdiction,
      balance: sql<number>`coalesce(sum(${journalLines.amount}), 0)`.mapWith(Number),
    })
    .from(ledgerAccounts)
    .leftJoin(journalLines, eq(journalLines.accountId, ledgerAccounts.id))
    .groupBy(ledgerAccounts.id);
}

/** The sum of every line of an entry kind on an account of a kind, for an item. */
export async function itemLineSum(db: Db, orderItemId: string, accountId: string): Promise<number> {
  const [row] = await db
    .select({ total: sql<number>`coalesce(sum(${journalLines.amount}), 0)`.mapWith(Number) })
    .from(journalLines)
    .where(and(eq(journalLines.orderItemId, orderItemId), eq(journalLines.accountId, accountId)));
  return row?.total ?? 0;
}

/** The paid order's charged total, tax and tax jurisdiction. */
export async function saleOrder(tx: Transaction, orderId: string) {
  const [order] = await tx
    .select({ totalAmount: orders.totalAmount, tax: orders.tax, taxJurisdiction: orders.taxJurisdiction })
    .from(orders)
    .where(eq(orders.id, orderId));
  return order;
}

/** The order's items as a sale books them, in a stable order. */
export async function saleItems(tx: Transaction, orderId: string) {
  return tx
    .select({
      id: orderItems.id,
      sellerId: orderItems.sellerId,
      category: orderItems.category,
      price: orderItems.price,
      quantity: orderItems.quantity,
      tax: orderItems.tax,
      fee: orderItems.fee,
      shippingState: orderItems.shippingState,
    })
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId))
    .orderBy(orderItems.id);
}

/** The fee rules that may apply to these sellers' items and categories: default, seller and category. */
export async function feeRulesFor(tx: Transaction, sellerIds: string[], categories: string[]) {
  return tx
    .select({ scope: feeRules.scope, subject: feeRules.subject, rate: feeRules.rate })
    .from(feeRules)
    .where(
      or(
        eq(feeRules.scope, "default"),
        and(eq(feeRules.scope, "seller"), inArray(feeRules.subject, sellerIds.length ? sellerIds : [""])),
        and(eq(feeRules.scope, "category"), inArray(feeRules.subject, categories.length ? categories : [""])),
      ),
    );
}

/** The order's commissions still to be settled (pending or held). */
export async function openCommissionsOf(tx: Transaction, orderId: string) {
  return tx
    .select({
      orderItemId: commissions.orderItemId,
      resellerId: commissions.resellerId,
      amount: commissions.amount,
    })
    .from(commissions)
    .where(and(eq(commissions.orderId, orderId), inArray(commissions.status, ["pending", "held"])));
}

/** Fixes an item's fee, tax share and settling date when its sale is booked. */
export async function fixItemBooking(
  tx: Transaction,
  orderItemId: string,
  values: { feeRate: string; fee: string; tax: string; settlesAt: Date | null },
) {
  await tx.update(orderItems).set(values).where(eq(orderItems.id, orderItemId));
}

/** The order's tax jurisdiction, or undefined for an unknown order. */
export async function orderJurisdiction(tx: Transaction, orderId: string) {
  const [order] = await tx
    .select({ taxJurisdiction: orders.taxJurisdiction })
    .from(orders)
    .where(eq(orders.id, orderId));
  return order;
}

/** What a refund of the item books from: its seller, price, quantity, tax and fee. */
export async function refundedItem(tx: Transaction, orderItemId: string) {
  const [item] = await tx
    .select({
      sellerId: orderItems.sellerId,
      price: orderItems.price,
      quantity: orderItems.quantity,
      tax: orderItems.tax,
      fee: orderItems.fee,
    })
    .from(orderItems)
    .where(eq(orderItems.id, orderItemId));
  return item;
}

/** No refund request on the item is waiting for a decision (requested, declined by the seller, escalated). */
const noOpenRefund = (db: Db) =>
  notExists(
    db
      .select({ one: sql`1` })
      .from(refundRequests)
      .where(
        and(
          eq(refundRequests.orderItemId, orderItems.id),
          inArray(refundRequests.status, [...openRefundStatuses]),
        ),
      ),
  );

/** Seller items whose refund window ended by `now`, not refunded, with no open request and no release yet. */
export async function dueForRelease(db: Database, now: Date, limit: number) {
  return db
    .select({ id: orderItems.id })
    .from(orderItems)
    .where(
      and(
        isNotNull(orderItems.sellerId),
        lte(orderItems.settlesAt, now),
        eq(orderItems.refundStatus, "none"),
        noOpenRefund(db),
        notExists(
          db
            .select({ one: sql`1` })
            .from(journalEntries)
            .where(eq(journalEntries.sourceKey, sql`'release:' || ${orderItems.id}`)),
        ),
      ),
    )
    .limit(limit);
}

/** The item, locked (skipped if another transaction holds it) and only while no refund request is open. */
export async function lockItemForRelease(tx: Transaction, orderItemId: string) {
  const [item] = await tx
    .select({
      sellerId: orderItems.sellerId,
      orderId: orderItems.orderId,
      refundStatus: orderItems.refundStatus,
    })
    .from(orderItems)
    .where(and(eq(orderItems.id, orderItemId), noOpenRefund(tx)))
    .for("update", { skipLocked: true });
  return item;
}

/** The item's seller (null for Stackbay's own, or an unknown item). */
export async function itemSeller(tx: Transaction, orderItemId: string): Promise<string | null> {
  const [item] = await tx
    .select({ sellerId: orderItems.sellerId })
    .from(orderItems)
    .where(eq(orderItems.id, orderItemId));
  return item?.sellerId ?? null;
}
