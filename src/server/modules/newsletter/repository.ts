import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "#server/db/client";
import { newsletterSubscriptions } from "#server/db/schema/inbound";

export async function findSubscription(db: Db, email: string) {
  const [row] = await db
    .select()
    .from(newsletterSubscriptions)
    .where(eq(newsletterSubscriptions.email, email));
  return row;
}

/**
 * Stores the address as waiting for confirmation with fresh token hashes; an earlier unconfirmed or
 * unsubscribed row starts over.
 */
export async function upsertPendingSubscription(
  db: Db,
  values: { email: string; confirmTokenHash: string; unsubscribeTokenHash: string },
) {
  const { confirmTokenHash, unsubscribeTokenHash } = values;
  await db
    .insert(newsletterSubscriptions)
    .values(values)
    .onConflictDoUpdate({
      target: newsletterSubscriptions.email,
      set: { confirmTokenHash, unsubscribeTokenHash, confirmedAt: null, unsubscribedAt: null },
    });
}

/** Confirms the subscription whose confirmation token has this hash; false when none (still) matches. */
export async function confirmSubscription(db: Db, confirmTokenHash: string) {
  const rows = await db
    .update(newsletterSubscriptions)
    .set({ confirmedAt: new Date(), confirmTokenHash: null })
    .where(
      and(
        eq(newsletterSubscriptions.confirmTokenHash, confirmTokenHash),
        isNull(newsletterSubscriptions.unsubscribedAt),
      ),
    )
    .returning({ id: newsletterSubscriptions.id });
  return rows.length > 0;
}

/** Unsubscribes the address whose unsubscribe token has this hash; false when there is none. */
export async function unsubscribe(db: Db, unsubscribeTokenHash: string) {
  const rows = await db
    .update(newsletterSubscriptions)
    .set({ unsubscribedAt: new Date() })
    .where(eq(newsletterSubscriptions.unsubscribeTokenHash, unsubscribeTokenHash))
    .returning({ id: newsletterSubscriptions.id });
  return rows.length > 0;
}
