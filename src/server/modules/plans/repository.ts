import { and, asc, eq, inArray, isNotNull, isNull, notInArray, sql } from "drizzle-orm";
import type { ProductPlan } from "#domain/catalog-schemas";
import type { Meter, MeterUnit, UsageTier } from "#domain/metering";
import type { Plan } from "#domain/plan-schemas";
import type { BillingInterval } from "#domain/subscriptions";
import type { Db, Transaction } from "#server/db/client";
import { user } from "#server/db/schema/auth";
import { products } from "#server/db/schema/catalog";
import { productPlans, subscriptions } from "#server/db/schema/subscriptions";

export type PlanRow = typeof productPlans.$inferSelect;

const planColumns = {
  id: productPlans.id,
  productId: productPlans.productId,
  name: productPlans.name,
  interval: productPlans.interval,
  price: productPlans.price,
  perSeat: productPlans.perSeat,
  minSeats: productPlans.minSeats,
  maxSeats: productPlans.maxSeats,
  trialDays: productPlans.trialDays,
  trialNeedsCard: productPlans.trialNeedsCard,
  meterUnit: productPlans.meterUnit,
  usageTiers: productPlans.usageTiers,
};

/** A plan's meter columns as the contracts carry them: one object, or null for a plan priced per period. */
export function meterOf(row: { meterUnit: MeterUnit | null; usageTiers: UsageTier[] | null }): Meter | null {
  return row.meterUnit && row.usageTiers ? { unit: row.meterUnit, tiers: row.usageTiers } : null;
}

/** A price as plans show it: dollars and cents ("9.00"). */
const cents = (price: string) => Number(price).toFixed(2);

/**
 * The JSON list of a product's live plans, for a statement that reads products (the product page reads
 * them with its features in one statement, decision 0018). `products.id` is the outer product.
 */
export const livePlansJson = sql<ProductPlan[]>`coalesce((
  select json_agg(json_build_object('id', pl.id, 'name', pl.name, 'interval', pl.interval,
    'price', to_char(pl.price, 'FM999999990.00'), 'perSeat', pl.per_seat, 'minSeats', pl.min_seats,
    'maxSeats', pl.max_seats, 'trialDays', pl.trial_days, 'trialNeedsCard', pl.trial_needs_card,
    'meter', case when pl.meter_unit is null then null
      else json_build_object('unit', pl.meter_unit, 'tiers', pl.usage_tiers) end)
    order by pl.position, pl.created_at)
  from product_plans pl where pl.product_id = products.id and pl.archived_at is null), '[]'::json)`;

/** The live plans of some products, by product, in their order. */
export async function livePlansOf(db: Db, productIds: string[]): Promise<Map<string, ProductPlan[]>> {
  const byProduct = new Map<string, ProductPlan[]>();
  if (productIds.length === 0) return byProduct;
  const rows = await db
    .select(planColumns)
    .from(productPlans)
    .where(and(inArray(productPlans.productId, productIds), isNull(productPlans.archivedAt)))
    .orderBy(asc(productPlans.position), asc(productPlans.createdAt));
  for (const { productId, price, meterUnit, usageTiers, ...plan } of rows) {
    const list = byProduct.get(productId) ?? [];
    list.push({ ...plan, price: cents(price), meter: meterOf({ meterUnit, usageTiers }) });
    byProduct.set(productId, list);
  }
  return byProduct;
}

/** A product's live plans for its editor, each with its live subscriptions counted. */
export async function plansForEditor(db: Db, productId: string): Promise<Plan[]> {
  const rows = await db
    .select({
      ...planColumns,
      // Spelled out: drizzle leaves columns unqualified when a select reads one table.
      subscribers: sql<number>`(select count(*)::int from subscriptions s
        where s.plan_id = product_plans.id and s.ended_at is null)`,
    })
    .from(productPlans)
    .where(and(eq(productPlans.productId, productId), isNull(productPlans.archivedAt)))
    .orderBy(asc(productPlans.position), asc(productPlans.createdAt));
  return rows.map(({ productId: _p, price, meterUnit, usageTiers, ...plan }) => ({
    ...plan,
    price: cents(price),
    meter: meterOf({ meterUnit, usageTiers }),
  }));
}

/** A product's live plans, locked for an edit of the set. */
export async function lockLivePlans(tx: Transaction, productId: string): Promise<PlanRow[]> {
  return tx
    .select()
    .from(productPlans)
    .where(and(eq(productPlans.productId, productId), isNull(productPlans.archivedAt)))
    .orderBy(asc(productPlans.position), asc(productPlans.createdAt))
    .for("update");
}

export type PlanValues = {
  name: string;
  interval: BillingInterval;
  price: string;
  perSeat: boolean;
  minSeats: number;
  maxSeats: number;
  trialDays: number;
  trialNeedsCard: boolean;
  meterUnit: MeterUnit | null;
  usageTiers: UsageTier[] | null;
};

export async function insertPlan(
  tx: Transaction,
  productId: string,
  values: PlanValues,
  position: number,
  now: Date,
): Promise<string> {
  const [row] = await tx
    .insert(productPlans)
    .values({ productId, ...values, position, createdAt: now, updatedAt: now })
    .returning({ id: productPlans.id });
  if (!row) throw new Error("plan not inserted");
  return row.id;
}

export async function updatePlan(
  tx: Transaction,
  id: string,
  values: PlanValues,
  position: number,
  now: Date,
): Promise<void> {
  await tx
    .update(productPlans)
    .set({ ...values, position, updatedAt: now })
    .where(eq(productPlans.id, id));
}

/** Archives the product's live plans not in `keep`: their subscribers keep them, nobody new can buy them. */
export async function archivePlansExcept(
  tx: Transaction,
  productId: string,
  keep: string[],
  now: Date,
): Promise<void> {
  await tx
    .update(productPlans)
    .set({ archivedAt: now, updatedAt: now })
    .where(
      and(
        eq(productPlans.productId, productId),
        isNull(productPlans.archivedAt),
        keep.length > 0 ? notInArray(productPlans.id, keep) : undefined,
      ),
    );
}

/** The listed price and pricing unit of a product follow its first plan. */
export async function setListedPrice(
  tx: Transaction,
  productId: string,
  price: string,
  pricingUnit: typeof products.$inferSelect.pricingUnit,
  now: Date,
): Promise<void> {
  await tx.update(products).set({ price, pricingUnit, updatedAt: now }).where(eq(products.id, productId));
}

/**
 * Gives every recurring product without a plan its first plan from its price (the seed and imports
 * write products directly; the migration that brought plans did the same for the products then).
 */
export async function addMissingFirstPlans(db: Db, productIds?: string[]): Promise<void> {
  if (productIds?.length === 0) return;
  const only = productIds ? sql`and ${inArray(sql`p.id`, productIds)}` : sql``;
  await db.execute(sql`
    insert into product_plans (product_id, name, interval, price, per_seat, min_seats, max_seats, position)
    select p.id,
      case p.pricing_unit when 'year' then 'Yearly' when 'user_year' then 'Per seat, yearly'
        when 'user_month' then 'Per seat' else 'Monthly' end,
      case when p.pricing_unit in ('year', 'user_year') then 'year' else 'month' end,
      p.price, p.pricing_unit in ('user_month', 'user_year'), 1, 99, 0
    from products p
    where p.pricing_unit in ('month', 'year', 'user_month', 'user_year') and p.price > 0
      and not exists (select 1 from product_plans pl where pl.product_id = p.id) ${only}`);
}

/** The live subscriptions on a plan whose renewals a new price would change, with their buyers. */
export async function subscriptionsToNotify(tx: Transaction, planId: string) {
  return tx
    .select({
      id: subscriptions.id,
      anchor: subscriptions.anchor,
      interval: subscriptions.interval,
      unitPrice: subscriptions.unitPrice,
      quantity: subscriptions.quantity,
      email: user.email,
      fullName: user.name,
    })
    .from(subscriptions)
    .innerJoin(user, eq(user.id, subscriptions.userId))
    .where(and(eq(subscriptions.planId, planId), isNull(subscriptions.endedAt)))
    .for("update", { of: subscriptions });
}

/** Announces a subscription's new price from `at`; announcing its current price withdraws any change. */
export async function announcePrice(
  tx: Transaction,
  id: string,
  change: { nextUnitPrice: string; priceChangeAt: Date } | null,
  now: Date,
): Promise<void> {
  await tx
    .update(subscriptions)
    .set({
      nextUnitPrice: change?.nextUnitPrice ?? null,
      priceChangeAt: change?.priceChangeAt ?? null,
      updatedAt: now,
    })
    .where(eq(subscriptions.id, id));
}

/** The products among `productIds` whose free trial this buyer has had already. */
export async function productsTrialled(db: Db, userId: string, productIds: string[]): Promise<string[]> {
  if (productIds.length === 0) return [];
  const rows = await db
    .select({ productId: subscriptions.productId })
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.userId, userId),
        inArray(subscriptions.productId, productIds),
        isNotNull(subscriptions.trialEndsAt),
      ),
    );
  return rows.flatMap((row) => (row.productId ? [row.productId] : []));
}
