import { desc, eq } from "drizzle-orm";
import type { License } from "#domain/license-schemas";
import { utcDay } from "#domain/reviews";
import type { Database } from "#server/db/client";
import { licenses } from "#server/db/schema/after-sale";
import { licenseValidationDays } from "#server/db/schema/reviews";

type LicenseRow = typeof licenses.$inferSelect;

export function toLicense(row: LicenseRow): License {
  return {
    id: row.id,
    key: row.key,
    productId: row.productId,
    productName: row.productName,
    orderId: row.orderId,
    status: row.status as License["status"],
    issuedAt: row.issuedAt.toISOString(),
    renewsAt: row.renewsAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}

/** A user's licenses, newest first. */
export async function licensesOf(db: Database, userId: string): Promise<License[]> {
  const rows = await db
    .select()
    .from(licenses)
    .where(eq(licenses.userId, userId))
    .orderBy(desc(licenses.issuedAt), desc(licenses.id));
  return rows.map(toLicense);
}

/** An order's licenses in issue order (for its confirmation e-mail). */
export async function licensesOfOrder(db: Database, orderId: string): Promise<License[]> {
  const rows = await db
    .select()
    .from(licenses)
    .where(eq(licenses.orderId, orderId))
    .orderBy(licenses.issuedAt, licenses.key);
  return rows.map(toLicense);
}

export async function findLicenseByKey(db: Database, key: string): Promise<LicenseRow | null> {
  const [row] = await db.select().from(licenses).where(eq(licenses.key, key));
  return row ?? null;
}

/**
 * Remembers that an active license passed the license API on the UTC day of `at`, once per day: seven
 * such days earn its holder's review the "Verified active use" badge.
 */
export async function recordValidationDay(db: Database, licenseId: string, at: Date): Promise<void> {
  await db
    .insert(licenseValidationDays)
    .values({ licenseId, day: utcDay(at) })
    .onConflictDoNothing();
}
