import { and, eq, inArray, sql } from "drizzle-orm";
import type { LedgerAccountKind } from "#domain/ledger";
import type { Db, Transaction } from "#server/db/client";
import { journalEntries, journalLines, ledgerAccounts } from "#server/db/schema/ledger";

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
