import { and, eq } from "drizzle-orm";
import { user } from "#server/db/schema/auth";
import { products } from "#server/db/schema/catalog";
import type { createTestApp } from "#server/test/app";
import { createVerifiedAccount, signedInClient } from "#server/test/client";

type TestApp = Awaited<ReturnType<typeof createTestApp>>;

/**
 * A new seller handed one public seeded product of `category`: their balances start at zero whatever the
 * demo seed has already sold, so a test can compare amounts, not differences.
 */
export async function sellerWithProduct(t: TestApp, email: string, category: string) {
  const account = await createVerifiedAccount(t.app, t.dataDir, { email, accountType: "seller" });
  const client = await signedInClient(t.app, account.email, account.password);
  const [me] = await t.db.select({ id: user.id }).from(user).where(eq(user.email, email));
  const [row] = await t.db
    .select({ id: products.id, price: products.price })
    .from(products)
    .where(
      and(
        eq(products.category, category),
        eq(products.isActive, true),
        eq(products.moderationStatus, "approved"),
      ),
    )
    .limit(1);
  if (!me || !row) throw new Error(`no seeded ${category} product to hand to ${email}`);
  await t.db.update(products).set({ sellerId: me.id }).where(eq(products.id, row.id));
  return { client, id: me.id, email, product: { id: row.id, price: Number(row.price) } };
}
