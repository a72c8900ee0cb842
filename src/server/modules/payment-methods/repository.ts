import { and, desc, eq, isNull, sql } from "drizzle-orm";
import type { SavedMethodKind } from "#domain/payment-methods";
import type { Db, Transaction } from "#server/db/client";
import { paymentCustomers, paymentMethodSetups, paymentMethods } from "#server/db/schema/payment-methods";
import { subscriptions } from "#server/db/schema/subscriptions";
import { renewsOn } from "#server/modules/subscriptions/repository";

export type MethodRow = typeof paymentMethods.$inferSelect;
export type SetupRow = typeof paymentMethodSetups.$inferSelect;

/** A buyer's live methods, default first then newest, each with the live subscriptions that renew on it. */
export async function methodsOf(db: Db, userId: string) {
  return db
    .select({
      method: paymentMethods,
      // Spelled out: drizzle leaves columns unqualified when a select reads one table, and inside the
      // subquery an unqualified `id` would be the subscription's.
      subscriptions: sql<number>`(select count(*)::int from subscriptions s
        where s.user_id = payment_methods.user_id and s.ended_at is null
          and ${renewsOn("s", "payment_methods")})`,
    })
    .from(paymentMethods)
    .where(and(eq(paymentMethods.userId, userId), isNull(paymentMethods.removedAt)))
    .orderBy(desc(paymentMethods.isDefault), desc(paymentMethods.createdAt));
}

/** One of the buyer's live methods, or undefined (someone else's is as absent as none). */
export async function methodOfUser(db: Db, userId: string, id: string): Promise<MethodRow | undefined> {
  const [row] = await db
    .select()
    .from(paymentMethods)
    .where(
      and(eq(paymentMethods.id, id), eq(paymentMethods.userId, userId), isNull(paymentMethods.removedAt)),
    );
  return row;
}

export async function customerRefOf(db: Db, userId: string, provider: string): Promise<string | null> {
  const [row] = await db
    .select({ customerRef: paymentCustomers.customerRef })
    .from(paymentCustomers)
    .where(and(eq(paymentCustomers.userId, userId), eq(paymentCustomers.provider, provider)));
  return row?.customerRef ?? null;
}

/** Keeps the first customer a provider made for the buyer; a later one is not kept over it. */
export async function saveCustomerRef(db: Db, userId: string, provider: string, customerRef: string) {
  await db.insert(paymentCustomers).values({ userId, provider, customerRef }).onConflictDoNothing();
}

export async function insertSetup(
  db: Db,
  values: { userId: string; kind: string; provider: string },
): Promise<SetupRow> {
  const [row] = await db.insert(paymentMethodSetups).values(values).returning();
  if (!row) throw new Error("setup insert returned nothing");
  return row;
}

export async function setSetupRef(db: Db, id: string, providerRef: string, now: Date) {
  await db
    .update(paymentMethodSetups)
    .set({ providerRef, updatedAt: now })
    .where(and(eq(paymentMethodSetups.id, id), isNull(paymentMethodSetups.providerRef)));
}

export async function setupOfUser(db: Db, userId: string, id: string): Promise<SetupRow | undefined> {
  const [row] = await db
    .select()
    .from(paymentMethodSetups)
    .where(and(eq(paymentMethodSetups.id, id), eq(paymentMethodSetups.userId, userId)));
  return row;
}

export async function setupByRef(db: Db, provider: string, providerRef: string) {
  const [row] = await db
    .select()
    .from(paymentMethodSetups)
    .where(and(eq(paymentMethodSetups.provider, provider), eq(paymentMethodSetups.providerRef, providerRef)));
  return row;
}

export async function lockSetupByRef(
  tx: Transaction,
  provider: string,
  providerRef: string,
): Promise<SetupRow | undefined> {
  const [row] = await tx
    .select()
    .from(paymentMethodSetups)
    .where(and(eq(paymentMethodSetups.provider, provider), eq(paymentMethodSetups.providerRef, providerRef)))
    .for("update");
  return row;
}

export async function updateSetup(
  tx: Transaction,
  id: string,
  values: { state: string; reason: string | null; methodId?: string | null },
  now: Date,
) {
  await tx
    .update(paymentMethodSetups)
    .set({ ...values, updatedAt: now })
    .where(eq(paymentMethodSetups.id, id));
}

export async function findMethodById(db: Db, id: string): Promise<MethodRow | undefined> {
  const [row] = await db.select().from(paymentMethods).where(eq(paymentMethods.id, id));
  return row;
}

/**
 * Saves a method; the same provider method saved again (the buyer saved that card once more) is the
 * same row, live again and chargeable again.
 */
export async function upsertMethod(
  tx: Transaction,
  values: typeof paymentMethods.$inferInsert & { kind: SavedMethodKind },
): Promise<MethodRow> {
  const [row] = await tx
    .insert(paymentMethods)
    .values(values)
    .onConflictDoUpdate({
      target: [paymentMethods.provider, paymentMethods.methodRef],
      set: {
        removedAt: null,
        declinedAt: null,
        declineReason: null,
        expMonth: values.expMonth ?? null,
        expYear: values.expYear ?? null,
      },
    })
    .returning();
  if (!row) throw new Error("payment method upsert returned nothing");
  return row;
}

/** The buyer's live bank-transfer method, if one is saved. */
export async function bankTransferMethodOf(db: Db, userId: string): Promise<MethodRow | undefined> {
  const [row] = await db
    .select()
    .from(paymentMethods)
    .where(
      and(
        eq(paymentMethods.userId, userId),
        eq(paymentMethods.kind, "bank_transfer"),
        isNull(paymentMethods.removedAt),
      ),
    );
  return row;
}

/** Locks the buyer's live methods (the default moves between them). */
export async function lockMethodsOf(tx: Transaction, userId: string): Promise<MethodRow[]> {
  return tx
    .select()
    .from(paymentMethods)
    .where(and(eq(paymentMethods.userId, userId), isNull(paymentMethods.removedAt)))
    .orderBy(desc(paymentMethods.createdAt))
    .for("update");
}

export async function setDefaultMethod(tx: Transaction, userId: string, id: string | null) {
  await tx
    .update(paymentMethods)
    .set({ isDefault: false })
    .where(and(eq(paymentMethods.userId, userId), eq(paymentMethods.isDefault, true)));
  if (id) await tx.update(paymentMethods).set({ isDefault: true }).where(eq(paymentMethods.id, id));
}

/** Removes a method: kept for the attempts that name it, but no longer offered nor charged. */
export async function removeMethod(tx: Transaction, id: string, now: Date) {
  await tx.update(paymentMethods).set({ removedAt: now, isDefault: false }).where(eq(paymentMethods.id, id));
  // Its subscriptions follow the buyer's default from now on.
  await tx
    .update(subscriptions)
    .set({ paymentMethodId: null, updatedAt: now })
    .where(eq(subscriptions.paymentMethodId, id));
}

/** A hard decline: the method is not charged off-session again until the buyer saves it again. */
export async function markDeclined(tx: Transaction, id: string, reason: string, now: Date) {
  await tx
    .update(paymentMethods)
    .set({ declinedAt: now, declineReason: reason })
    .where(eq(paymentMethods.id, id));
}

export async function setSubscriptionMethod(
  tx: Transaction,
  subscriptionId: string,
  methodId: string | null,
  now: Date,
) {
  await tx
    .update(subscriptions)
    .set({ paymentMethodId: methodId, updatedAt: now })
    .where(eq(subscriptions.id, subscriptionId));
}

/** Whether a card with this fingerprint already started a trial of the product (for any buyer). */
export async function trialUsedByCard(db: Db, productId: string, fingerprint: string): Promise<boolean> {
  const [row] = await db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(and(eq(subscriptions.productId, productId), eq(subscriptions.trialFingerprint, fingerprint)))
    .limit(1);
  return row !== undefined;
}
