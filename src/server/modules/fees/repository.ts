import { and, asc, eq, or } from "drizzle-orm";
import type { FeeScope } from "#domain/fees";
import type { Db, Transaction } from "#server/db/client";
import { user } from "#server/db/schema/auth";
import { categories } from "#server/db/schema/catalog";
import { feeRules } from "#server/db/schema/ledger";

/** Every rule, with the category's name or the seller's name and e-mail people recognise it by. */
export async function listRules(db: Db) {
  return db
    .select({
      scope: feeRules.scope,
      subject: feeRules.subject,
      rate: feeRules.rate,
      updatedAt: feeRules.updatedAt,
      categoryName: categories.name,
      sellerName: user.name,
      sellerEmail: user.email,
    })
    .from(feeRules)
    .leftJoin(categories, and(eq(feeRules.scope, "category"), eq(categories.slug, feeRules.subject)))
    .leftJoin(user, and(eq(feeRules.scope, "seller"), eq(user.id, feeRules.subject)))
    .orderBy(asc(feeRules.scope), asc(categories.name), asc(user.email), asc(feeRules.subject));
}

/** A rule, locked for the rest of the transaction so two admins' changes are audited in turn. */
export async function lockRule(tx: Transaction, scope: FeeScope, subject: string) {
  const [row] = await tx
    .select({ rate: feeRules.rate })
    .from(feeRules)
    .where(and(eq(feeRules.scope, scope), eq(feeRules.subject, subject)))
    .for("update");
  return row;
}

export async function upsertRule(
  tx: Transaction,
  rule: { scope: FeeScope; subject: string; rate: string; updatedBy: string },
  now: Date,
) {
  const [row] = await tx
    .insert(feeRules)
    .values({ ...rule, updatedAt: now })
    .onConflictDoUpdate({
      target: [feeRules.scope, feeRules.subject],
      set: { rate: rule.rate, updatedBy: rule.updatedBy, updatedAt: now },
    })
    .returning({ rate: feeRules.rate, updatedAt: feeRules.updatedAt });
  if (!row) throw new Error("fee rule upsert returned no row");
  return row;
}

export async function deleteRule(tx: Transaction, scope: FeeScope, subject: string) {
  const [row] = await tx
    .delete(feeRules)
    .where(and(eq(feeRules.scope, scope), eq(feeRules.subject, subject)))
    .returning({ rate: feeRules.rate });
  return row;
}

export async function findCategory(db: Db, slug: string) {
  const [row] = await db
    .select({ slug: categories.slug, name: categories.name })
    .from(categories)
    .where(eq(categories.slug, slug));
  return row;
}

/** A seller by e-mail; accounts that are not sellers are not found, like unknown ones. */
export async function findSellerByEmail(db: Db, email: string) {
  const [row] = await db
    .select({ id: user.id, name: user.name, email: user.email })
    .from(user)
    .where(and(eq(user.email, email), eq(user.isSeller, true)));
  return row;
}

export async function findUserLabel(db: Db, id: string) {
  const [row] = await db.select({ name: user.name, email: user.email }).from(user).where(eq(user.id, id));
  return row;
}

export async function allCategories(db: Db) {
  return db
    .select({ slug: categories.slug, name: categories.name })
    .from(categories)
    .orderBy(asc(categories.name));
}

/** The rules that can apply to a seller's items: the default, every category's, and the seller's own. */
export async function rulesForSeller(db: Db, sellerId: string) {
  return db
    .select({ scope: feeRules.scope, subject: feeRules.subject, rate: feeRules.rate })
    .from(feeRules)
    .where(
      or(
        eq(feeRules.scope, "default"),
        eq(feeRules.scope, "category"),
        and(eq(feeRules.scope, "seller"), eq(feeRules.subject, sellerId)),
      ),
    );
}
