import { sql } from "drizzle-orm";
import type { Db } from "#server/db/client";
import { journalLines } from "#server/db/schema/ledger";

/** The journal entries whose lines do not sum to zero: none, in a ledger that balances. */
export async function unbalancedEntries(db: Db): Promise<string[]> {
  const rows = await db
    .select({ entryId: journalLines.entryId })
    .from(journalLines)
    .groupBy(journalLines.entryId)
    .having(sql`sum(${journalLines.amount}) <> 0`);
  return rows.map((row) => row.entryId);
}
