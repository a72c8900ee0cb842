import { and, eq, isNull, lte, or } from "drizzle-orm";
import type { StripeAccountStatus } from "#domain/payouts";
import type { Db, Transaction } from "#server/db/client";
import { user } from "#server/db/schema/auth";
import { payoutAccounts } from "#server/db/schema/payouts";

export type PayoutAccountRow = typeof payoutAccounts.$inferSelect;

export async function findPayoutAccount(db: Db, userId: string): Promise<PayoutAccountRow | undefined> {
  const [row] = await db.select().from(payoutAccounts).where(eq(payoutAccounts.userId, userId));
  return row;
}

/** The user's row locked for the rest of the transaction, so two changes at once apply one after the other. */
export async function lockPayoutAccount(
  tx: Transaction,
  userId: string,
): Promise<PayoutAccountRow | undefined> {
  const [row] = await tx.select().from(payoutAccounts).where(eq(payoutAccounts.userId, userId)).for("update");
  return row;
}

/** Replaces whatever the user had with a bank account (sealed) and its masked form. */
export async function writeBankAccount(
  tx: Transaction,
  userId: string,
  values: { sealed: string; masked: string; country: string; now: Date },
): Promise<PayoutAccountRow> {
  const set = {
    method: "bank",
    bankSealed: values.sealed,
    bankMasked: values.masked,
    country: values.country,
    stripeAccountKey: null,
    stripeAccountId: null,
    stripeStatus: null,
    stripeRequirements: [],
    stripeStatusAt: null,
    detailsChangedAt: values.now,
    updatedAt: values.now,
  };
  return upsertPayoutAccount(tx, userId, set);
}

/** The user's one payout method, replaced whole: a row inserted, or the existing row overwritten. */
async function upsertPayoutAccount(
  tx: Transaction,
  userId: string,
  set: Omit<typeof payoutAccounts.$inferInsert, "userId">,
): Promise<PayoutAccountRow> {
  const [row] = await tx
    .insert(payoutAccounts)
    .values({ userId, ...set })
    .onConflictDoUpdate({ target: payoutAccounts.userId, set })
    .returning();
  if (!row) throw new Error("payout account upsert returned nothing");
  return row;
}

/** Replaces whatever the user had with a Stripe account still to be opened under `key`. */
export async function writeStripeStart(
  tx: Transaction,
  userId: string,
  start: { key: string; country: string; now: Date },
): Promise<PayoutAccountRow> {
  const set = {
    method: "stripe",
    stripeAccountKey: start.key,
    stripeAccountId: null,
    stripeStatus: "onboarding",
    stripeRequirements: [],
    stripeStatusAt: null,
    bankSealed: null,
    bankMasked: null,
    country: start.country,
    detailsChangedAt: start.now,
    updatedAt: start.now,
  };
  return upsertPayoutAccount(tx, userId, set);
}

/** Records the account Stripe opened, on the row still waiting for it under the same key. */
export async function setStripeAccountId(
  db: Db,
  userId: string,
  key: string,
  accountId: string,
): Promise<void> {
  await db
    .update(payoutAccounts)
    .set({ stripeAccountId: accountId })
    .where(
      and(
        eq(payoutAccounts.userId, userId),
        eq(payoutAccounts.stripeAccountKey, key),
        isNull(payoutAccounts.stripeAccountId),
      ),
    );
}

export async function deletePayoutAccount(tx: Transaction, userId: string): Promise<void> {
  await tx.delete(payoutAccounts).where(eq(payoutAccounts.userId, userId));
}

/**
 * Applies what Stripe reported about a connected account, unless a newer report was applied already.
 * Answers whether the account is ours and whether the report changed it.
 */
export async function applyStripeStatus(
  tx: Transaction,
  report: { accountId: string; status: StripeAccountStatus; requirements: string[]; occurredAt: Date },
): Promise<"applied" | "stale" | "unknown"> {
  const updated = await tx
    .update(payoutAccounts)
    .set({
      stripeStatus: report.status,
      stripeRequirements: report.requirements,
      stripeStatusAt: report.occurredAt,
      updatedAt: new Date(),
    })
    .where(
      and(
        eq(payoutAccounts.stripeAccountId, report.accountId),
        eq(payoutAccounts.method, "stripe"),
        or(isNull(payoutAccounts.stripeStatusAt), lte(payoutAccounts.stripeStatusAt, report.occurredAt)),
      ),
    )
    .returning({ userId: payoutAccounts.userId });
  if (updated.length > 0) return "applied";
  const [known] = await tx
    .select({ userId: payoutAccounts.userId })
    .from(payoutAccounts)
    .where(eq(payoutAccounts.stripeAccountId, report.accountId));
  return known ? "stale" : "unknown";
}

/** The address and first name the change notice goes to. */
export async function accountContact(db: Db, userId: string) {
  const [row] = await db
    .select({ email: user.email, firstName: user.firstName })
    .from(user)
    .where(eq(user.id, userId));
  return row;
}
