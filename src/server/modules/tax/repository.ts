import { and, eq, gt } from "drizzle-orm";
import type { Db } from "#server/db/client";
import { user } from "#server/db/schema/auth";
import { taxRates, vatChecks } from "#server/db/schema/ledger";

export type TaxRateRow = typeof taxRates.$inferSelect;

/** Every admin override, with the e-mail of the admin who made it (null if that account is gone). */
export async function listTaxRateOverrides(db: Db) {
  return db
    .select({
      jurisdiction: taxRates.jurisdiction,
      rate: taxRates.rate,
      updatedAt: taxRates.updatedAt,
      updatedByEmail: user.email,
    })
    .from(taxRates)
    .leftJoin(user, eq(user.id, taxRates.updatedBy));
}

/** The jurisdiction's override, locked until the transaction ends, or undefined. */
export async function lockTaxRate(tx: Db, jurisdiction: string): Promise<TaxRateRow | undefined> {
  const [row] = await tx.select().from(taxRates).where(eq(taxRates.jurisdiction, jurisdiction)).for("update");
  return row;
}

export async function upsertTaxRate(
  tx: Db,
  values: { jurisdiction: string; rate: string; updatedBy: string },
) {
  const set = { rate: values.rate, updatedBy: values.updatedBy, updatedAt: new Date() };
  await tx
    .insert(taxRates)
    .values({ jurisdiction: values.jurisdiction, ...set })
    .onConflictDoUpdate({ target: taxRates.jurisdiction, set });
}

export async function deleteTaxRate(tx: Db, jurisdiction: string): Promise<void> {
  await tx.delete(taxRates).where(eq(taxRates.jurisdiction, jurisdiction));
}

/** The register's confirmation of `vatNumber` if it was made after `since`, or undefined. */
export async function findVatCheckSince(db: Db, vatNumber: string, since: Date) {
  const [row] = await db
    .select()
    .from(vatChecks)
    .where(and(eq(vatChecks.vatNumber, vatNumber), gt(vatChecks.checkedAt, since)));
  return row;
}

/** Keeps a register's confirmation of a VAT number, replacing an older one. */
export async function saveVatCheck(db: Db, values: typeof vatChecks.$inferInsert): Promise<void> {
  const { vatNumber, ...set } = values;
  await db.insert(vatChecks).values(values).onConflictDoUpdate({ target: vatChecks.vatNumber, set });
}
