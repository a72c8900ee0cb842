import { accountId, balances, type JournalEntryKind, type PostingLine } from "#domain/ledger";
import type { Transaction } from "#server/db/client";
import { ensureAccounts, insertEntryOnce, insertLines } from "#server/modules/ledger/repository";

export type Posting = {
  kind: JournalEntryKind;
  /** The cause, unique: booking the same cause again changes nothing. */
  sourceKey: string;
  memo: string;
  lines: PostingLine[];
  occurredAt: Date;
  orderId?: string | null;
  orderItemId?: string | null;
  refundId?: string | null;
  commissionId?: string | null;
  payoutId?: string | null;
  createdBy?: string | null;
};

export class UnbalancedEntry extends Error {
  constructor(sourceKey: string) {
    super(`Journal entry ${sourceKey} does not balance`);
  }
}

/**
 * Books an entry in the caller's transaction, so it exists exactly when its cause does. Lines on the
 * same account and item are merged; an entry with no lines left books nothing. True when this call
 * booked it, false when the cause had been booked before.
 */
export async function post(tx: Transaction, posting: Posting): Promise<boolean> {
  if (!balances(posting.lines)) throw new UnbalancedEntry(posting.sourceKey);
  const merged = new Map<string, PostingLine & { id: string }>();
  for (const line of posting.lines) {
    const id = accountId(line.account);
    const key = `${id}|${line.orderItemId ?? ""}`;
    const seen = merged.get(key);
    merged.set(key, { ...line, id, amount: (seen?.amount ?? 0) + line.amount });
  }
  const lines = [...merged.values()].filter((line) => line.amount !== 0);
  if (lines.length === 0) return false;
  await ensureAccounts(
    tx,
    [...new Map(lines.map((line) => [line.id, line.account])).entries()].map(([id, account]) => ({
      id,
      kind: account.kind,
      ownerId: "owner" in account ? account.owner : null,
      jurisdiction: "jurisdiction" in account ? account.jurisdiction : null,
    })),
  );
  const { lines: _lines, ...entry } = posting;
  const entryId = await insertEntryOnce(tx, entry);
  if (!entryId) return false;
  await insertLines(
    tx,
    entryId,
    lines.map((line) => ({ accountId: line.id, amount: line.amount, orderItemId: line.orderItemId ?? null })),
  );
  return true;
}
