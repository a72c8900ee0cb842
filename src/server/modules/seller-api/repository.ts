import { and, count, desc, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { Db, Transaction } from "#server/db/client";
import { user } from "#server/db/schema/auth";
import { sellerApiCalls, sellerApiKeys } from "#server/db/schema/seller-api";

export type SellerApiKeyRow = typeof sellerApiKeys.$inferSelect;

/** A seller's keys: the live ones newest first, then the revoked ones, most recently revoked first. */
export async function keysOf(db: Db, sellerId: string): Promise<SellerApiKeyRow[]> {
  return db
    .select()
    .from(sellerApiKeys)
    .where(eq(sellerApiKeys.sellerId, sellerId))
    .orderBy(
      sql`${sellerApiKeys.revokedAt} is not null`,
      desc(sellerApiKeys.revokedAt),
      desc(sellerApiKeys.createdAt),
    );
}

/**
 * Holds the seller's account row until the transaction ends, so that two keys made at once are counted
 * one after the other against the limit.
 */
export async function lockSeller(tx: Transaction, sellerId: string): Promise<void> {
  await tx.select({ id: user.id }).from(user).where(eq(user.id, sellerId)).for("update");
}

export async function liveKeyCount(db: Db, sellerId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(sellerApiKeys)
    .where(and(eq(sellerApiKeys.sellerId, sellerId), isNull(sellerApiKeys.revokedAt)));
  return row?.n ?? 0;
}

export async function insertKey(
  tx: Transaction,
  values: {
    sellerId: string;
    name: string;
    prefix: string;
    secretHash: string;
    scopes: string[];
    createdAt: Date;
  },
): Promise<SellerApiKeyRow> {
  const [row] = await tx.insert(sellerApiKeys).values(values).returning();
  if (!row) throw new Error("the key was not stored");
  return row;
}

/** One of the seller's keys, locked for the transaction; another seller's is as absent as none. */
export async function lockKeyOfSeller(
  tx: Transaction,
  sellerId: string,
  id: string,
): Promise<SellerApiKeyRow | undefined> {
  const [row] = await tx
    .select()
    .from(sellerApiKeys)
    .where(and(eq(sellerApiKeys.id, id), eq(sellerApiKeys.sellerId, sellerId)))
    .for("update");
  return row;
}

export async function updateKey(
  tx: Transaction,
  id: string,
  values: Partial<Pick<SellerApiKeyRow, "prefix" | "secretHash" | "rolledAt" | "revokedAt">>,
): Promise<SellerApiKeyRow> {
  const [row] = await tx.update(sellerApiKeys).set(values).where(eq(sellerApiKeys.id, id)).returning();
  if (!row) throw new Error("the key vanished while it was locked");
  return row;
}

/** A live key by its public prefix, with what its owner's account says now. */
export async function liveKeyByPrefix(db: Db, prefix: string) {
  const [row] = await db
    .select({ key: sellerApiKeys, owner: user })
    .from(sellerApiKeys)
    .innerJoin(user, eq(user.id, sellerApiKeys.sellerId))
    .where(and(eq(sellerApiKeys.prefix, prefix), isNull(sellerApiKeys.revokedAt)));
  return row;
}

/** Marks a key used; at most once a minute, so a busy key does not write its row on every call. */
export async function touchKey(db: Db, id: string, now: Date): Promise<void> {
  await db
    .update(sellerApiKeys)
    .set({ lastUsedAt: now })
    .where(
      and(
        eq(sellerApiKeys.id, id),
        or(isNull(sellerApiKeys.lastUsedAt), lt(sellerApiKeys.lastUsedAt, new Date(now.getTime() - 60_000))),
      ),
    );
}

export async function insertCall(
  db: Db,
  values: { keyId: string; sellerId: string; operation: string; status: number; at: Date },
): Promise<void> {
  await db.insert(sellerApiCalls).values(values);
}

/** One page of the seller's access log, newest first, each call with its key's name and prefix. */
export async function callsOf(db: Db, sellerId: string, page: number, pageSize: number) {
  const [items, [total]] = await Promise.all([
    db
      .select({
        at: sellerApiCalls.at,
        operation: sellerApiCalls.operation,
        status: sellerApiCalls.status,
        keyName: sellerApiKeys.name,
        keyPrefix: sellerApiKeys.prefix,
      })
      .from(sellerApiCalls)
      .innerJoin(sellerApiKeys, eq(sellerApiKeys.id, sellerApiCalls.keyId))
      .where(eq(sellerApiCalls.sellerId, sellerId))
      .orderBy(desc(sellerApiCalls.at), desc(sellerApiCalls.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ n: count() }).from(sellerApiCalls).where(eq(sellerApiCalls.sellerId, sellerId)),
  ]);
  return { items, total: total?.n ?? 0 };
}

/** Forgets calls older than `before`; answers how many went. */
export async function pruneCalls(db: Db, before: Date): Promise<number> {
  const gone = await db
    .delete(sellerApiCalls)
    .where(lt(sellerApiCalls.at, before))
    .returning({ id: sellerApiCalls.id });
  return gone.length;
}
