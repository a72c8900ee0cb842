import { asc, count, eq } from "drizzle-orm";
import type { Db } from "#server/db/client";
import { user } from "#server/db/schema/auth";
import { fxRates, products } from "#server/db/schema/catalog";
import { orders } from "#server/db/schema/orders";

/** How many accounts, products (all and on sale) and orders there are. */
export async function countRecords(db: Db) {
  const total = async (query: Promise<{ n: number }[]>) => (await query)[0]?.n ?? 0;
  const [users, allProducts, activeProducts, allOrders] = await Promise.all([
    total(db.select({ n: count() }).from(user)),
    total(db.select({ n: count() }).from(products)),
    total(db.select({ n: count() }).from(products).where(eq(products.isActive, true))),
    total(db.select({ n: count() }).from(orders)),
  ]);
  return { users, products: allProducts, activeProducts, orders: allOrders };
}

export async function listFxRates(db: Db) {
  return db.select().from(fxRates).orderBy(asc(fxRates.currencyCode));
}

/** The currency's rate row, locked until the transaction ends, or undefined. */
export async function lockFxRate(tx: Db, currencyCode: string) {
  const [row] = await tx.select().from(fxRates).where(eq(fxRates.currencyCode, currencyCode)).for("update");
  return row;
}

/** Stores a currency's rate and buffer (numeric strings), creating its row the first time. */
export async function upsertFxRate(
  tx: Db,
  currencyCode: string,
  values: { rateToUsd: string; fxBuffer: string },
) {
  const set = { ...values, updatedAt: new Date() };
  const [saved] = await tx
    .insert(fxRates)
    .values({ currencyCode, ...set })
    .onConflictDoUpdate({ target: fxRates.currencyCode, set })
    .returning();
  if (!saved) throw new Error(`the rate of ${currencyCode} was not saved`);
  return saved;
}

export type FxRateRow = typeof fxRates.$inferSelect;
