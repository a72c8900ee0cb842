import { existsSync } from "node:fs";
import path from "node:path";
import { and, count, eq, sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { categories as categoryList } from "#domain/categories";
import { buildInvoice } from "#domain/invoice";
import { computeTotals, lineTotal, toUnits } from "#domain/money";
import { DEFAULT_REFUND_WINDOW_DAYS } from "#domain/refunds";
import { account, user } from "#server/db/schema/auth";
import {
  categories,
  fxRates,
  productFeatures,
  productSpecifications,
  products,
  storefronts,
} from "#server/db/schema/catalog";
import { siteContentBlocks, sitePages } from "#server/db/schema/content";
import { journalEntries, journalLines, ledgerAccounts } from "#server/db/schema/ledger";
import { orderItems, orders } from "#server/db/schema/orders";
import { payments } from "#server/db/schema/payments";
import { productQuestions } from "#server/db/schema/questions";
import { demoAccounts, seedDemo, seedDemoIfEmpty } from "#server/db/seed/demo";
import { seedSyntheticProducts } from "#server/db/seed/synthetic";
import { demoVendors, SAMIR_VENDOR } from "#server/db/seed/vendor-data";
import { reconcileOrders } from "#server/modules/finance/repository";
import { findOrder } from "#server/modules/orders/repository";
import { createTestApp, queryRows } from "#server/test/app";

let t: Awaited<ReturnType<typeof createTestApp>>;
let uploadsDir: string;
beforeAll(async () => {
  t = await createTestApp();
  uploadsDir = path.join(t.dataDir, "uploads");
});
afterAll(() => t.close());

const countOf = async (table: PgTable) => (await t.db.select({ n: count() }).from(table))[0]?.n ?? 0;

describe("demo seed", () => {
  test("fills an empty database with the catalogue, rates, accounts, pages and blocks", async () => {
    const first = await seedDemoIfEmpty(t.db, { uploadsDir });
    expect(first?.products).toBeGreaterThanOrEqual(60);

    const cats = await t.db.select({ slug: categories.slug, name: categories.name }).from(categories);
    expect(cats.sort((a, b) => a.slug.localeCompare(b.slug))).toEqual(
      [...categoryList]
        .map((c) => ({ slug: c.slug, name: c.name }))
        .sort((a, b) => a.slug.localeCompare(b.slug)),
    );
    const rates = await t.db.select().from(fxRates);
    expect(rates.map((r) => r.currencyCode).sort()).toEqual(["AED", "EUR", "GBP", "INR", "USD"]);
    expect(rates.find((r) => r.currencyCode === "USD")?.fxBuffer).toBe("0.0000");

    const perCategory = await t.db
      .select({ category: products.category, n: count() })
      .from(products)
      .groupBy(products.category);
    expect(perCategory).toHaveLength(5);
    for (const row of perCategory) expect(row.n).toBeGreaterThanOrEqual(10);

    const perCall = await t.db
      .select()
      .from(products)
      .where(sql`${products.price} < 1 and ${products.name} like '%API%'`);
    expect(perCall.length).toBeGreaterThan(0);
    const hardwareMax = await t.db.select({ max: sql<string>`max(${products.price})` }).from(products);
    expect(Number(hardwareMax[0]?.max)).toBeGreaterThan(1000);

    const all = await t.db.select().from(products);
    for (const p of all) {
      expect(p.images.length, p.name).toBeGreaterThanOrEqual(1);
      expect(p.images.length, p.name).toBeLessThanOrEqual(4);
      expect(p.imageUrl).toBe(p.images[0]);
      for (const url of p.images)
        expect(existsSync(path.join(uploadsDir, url.replace("/uploads/", "")))).toBe(true);
      expect(p.hasDiscount).toBe(p.discountLabel !== null);
    }
    const features = await t.db
      .select({ productId: productFeatures.productId, n: count() })
      .from(productFeatures)
      .groupBy(productFeatures.productId);
    for (const f of features) expect(f.n).toBeGreaterThanOrEqual(3);
    const specs = await t.db
      .select({ productId: productSpecifications.productId, n: count() })
      .from(productSpecifications)
      .groupBy(productSpecifications.productId);
    for (const s of specs) {
      expect(s.n).toBeGreaterThanOrEqual(3);
      expect(s.n).toBeLessThanOrEqual(8);
    }

    expect(await countOf(sitePages)).toBe(2);
    expect(await countOf(siteContentBlocks)).toBeGreaterThanOrEqual(3);
  });

  test("demo accounts are verified, carry their roles and have argon2id password hashes", async () => {
    for (const demo of demoAccounts) {
      const [row] = await t.db.select().from(user).where(eq(user.email, demo.email));
      expect(row?.emailVerified, demo.email).toBe(true);
      const [credential] = await t.db
        .select()
        .from(account)
        .where(eq(account.userId, row?.id ?? ""));
      expect(credential?.providerId).toBe("credential");
      expect(credential?.password).toMatch(/^\$argon2id\$/);
    }
    const [admin] = await t.db.select().from(user).where(eq(user.email, "admin@stackbay.test"));
    expect(admin).toMatchObject({ isAdmin: true, isSuperAdmin: false });
    const [superAdmin] = await t.db.select().from(user).where(eq(user.email, "superadmin@stackbay.test"));
    expect(superAdmin).toMatchObject({ isAdmin: true, isSuperAdmin: true });
    const [reseller] = await t.db.select().from(user).where(eq(user.email, "reseller@stackbay.test"));
    expect(reseller).toMatchObject({ isBuyer: true, isReseller: true, isAdmin: false });
  });

  test("every paid demo order is booked through the sale rule, its items naming the product's seller", async () => {
    const paid = await t.db
      .select({ id: orders.id, sale: journalEntries.id })
      .from(orders)
      .leftJoin(journalEntries, eq(journalEntries.orderId, orders.id))
      .where(and(eq(orders.isPaid, true), sql`${orders.totalAmount} > 0`));
    expect(paid.length).toBeGreaterThan(0);
    for (const order of paid) expect(order.sale, order.id).not.toBeNull();
    // An order of free trials only moved no money: confirmed with nothing to pay, it books nothing.
    const free = await t.db
      .select({ id: orders.id, sale: journalEntries.id })
      .from(orders)
      .leftJoin(journalEntries, eq(journalEntries.orderId, orders.id))
      .where(and(eq(orders.isPaid, true), sql`${orders.totalAmount} = 0`));
    expect(free.length).toBeGreaterThan(0);
    for (const order of free) expect(order.sale, order.id).toBeNull();
    const items = await t.db
      .select({ item: orderItems.sellerId, product: products.sellerId })
      .from(orderItems)
      .innerJoin(products, eq(products.id, orderItems.productId));
    for (const row of items) expect(row.item).toBe(row.product);
    const [pending] = await t.db
      .select({ units: sql<string>`coalesce(sum(${journalLines.amount}), 0)` })
      .from(journalLines)
      .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, journalLines.accountId))
      .where(eq(ledgerAccounts.kind, "seller_available"));
    expect(Number(pending?.units)).toBeLessThan(0);
    // Each was captured in test mode for exactly what its sale booked: the books reconcile.
    const books = await reconcileOrders(t.db);
    expect(books.differences).toEqual([]);
    expect(books.totals.captured).toBeGreaterThan(0);
  });

  test("every demo order and invoice is priced by the checkout's rules: whole cents, subtotal + tax = total", async () => {
    const all = await t.db.select().from(orders);
    expect(all.length).toBeGreaterThan(0);
    const cents = (amount: string) => toUnits(amount) % 100 === 0;
    for (const order of all) {
      const items = await t.db.select().from(orderItems).where(eq(orderItems.orderId, order.id));
      const lines = items.map((i) => ({ price: i.price, quantity: i.quantity }));
      // The checkout's own totals for these lines at the order's rate, to the unit.
      const totals = computeTotals(lines, order.taxRate);
      expect({ subtotal: order.subtotal, tax: order.tax, total: order.totalAmount }, order.id).toEqual({
        subtotal: totals.subtotal,
        tax: totals.tax,
        total: totals.total,
      });
      for (const amount of [order.subtotal, order.tax, order.totalAmount])
        expect(cents(amount), amount).toBe(true);
      expect(toUnits(order.subtotal) + toUnits(order.tax)).toBe(toUnits(order.totalAmount));
      expect(items.reduce((sum, i) => sum + toUnits(i.tax), 0)).toBe(toUnits(order.tax));
      // A price per call, minute or unit is bought in a quantity whose line is worth charging; only a
      // free trial's line is charged nothing now.
      for (const item of items)
        if (item.trialDays === 0)
          expect(toUnits(lineTotal(item.price, item.quantity)), item.productName).toBeGreaterThan(0);
      const [payment] = await t.db.select().from(payments).where(eq(payments.orderId, order.id));
      // An order with nothing to pay asked no provider.
      if (order.isPaid && toUnits(order.totalAmount) > 0)
        expect(payment?.amountCents).toBe(toUnits(order.totalAmount) / 100);
      else if (order.isPaid) expect(payment).toBeUndefined();

      const found = await findOrder(t.db, order.id, null, DEFAULT_REFUND_WINDOW_DAYS);
      if (!found) throw new Error(`order ${order.id} not found`);
      const invoice = buildInvoice(found, { trn: "100000000000003" });
      const wholeCents = /^\$[\d,]+\.\d{2}( USD)?$/;
      for (const text of [
        invoice.subtotal,
        invoice.tax,
        invoice.total,
        ...invoice.lines.map((l) => l.amount),
      ])
        expect(text, `${order.id}: ${text}`).toMatch(wholeCents);
    }
  });

  test("each catalogue vendor is the storefront of its own demo seller, who owns its products; Samir owns one", async () => {
    const rows = await t.db
      .select({
        vendor: products.vendor,
        storefront: storefronts.name,
        email: user.email,
        logoUrl: storefronts.logoUrl,
      })
      .from(products)
      .innerJoin(storefronts, eq(storefronts.userId, products.sellerId))
      .innerJoin(user, eq(user.id, products.sellerId));
    expect(rows).toHaveLength(await countOf(products));
    for (const row of rows) expect(row.storefront, row.vendor ?? "").toBe(row.vendor);
    const owners = new Map(rows.map((r) => [r.vendor, r.email]));
    expect(owners.size).toBe(demoVendors.length);
    expect(new Set(owners.values()).size).toBe(demoVendors.length);
    expect(owners.get(SAMIR_VENDOR)).toBe("seller@stackbay.test");
    expect(owners.get("Kestrelbyte")).toBe("kestrelbyte@vendors.stackbay.test");
    for (const row of rows) expect(existsSync(path.join(uploadsDir, "..", row.logoUrl ?? "-"))).toBe(true);
    const verified = await t.db.select().from(storefronts).where(eq(storefronts.isVerified, true));
    expect(verified.length).toBeGreaterThan(2);
    expect(verified.length).toBeLessThan(demoVendors.length / 2);
  });

  test("every seller was a member before their first listing and their first sale ('Member since' on storefronts)", async () => {
    const sellers = await queryRows<{
      email: string;
      joined: number;
      first_product: number | null;
      first_sale: number | null;
    }>(
      t.db,
      sql`select u.email, extract(epoch from u.created_at)::float8 as joined,
            (select extract(epoch from min(p.created_at))::float8 from products p where p.seller_id = u.id)
              as first_product,
            (select extract(epoch from min(o.created_at))::float8 from order_items i
              join orders o on o.id = i.order_id where i.seller_id = u.id) as first_sale
          from storefronts s join users u on u.id = s.user_id`,
    );
    expect(sellers).toHaveLength(demoVendors.length);
    expect(sellers.some((s) => s.first_sale !== null)).toBe(true);
    for (const seller of sellers) {
      for (const first of [seller.first_product, seller.first_sale]) {
        if (first !== null) expect(seller.joined, seller.email).toBeLessThanOrEqual(first);
      }
    }
  });

  test("is idempotent: seeding again adds nothing, and the empty-only seed skips a filled database", async () => {
    const before = {
      products: await countOf(products),
      features: await countOf(productFeatures),
      users: await countOf(user),
      accounts: await countOf(account),
      pages: await countOf(sitePages),
      questions: await countOf(productQuestions),
    };
    expect(before.questions).toBeGreaterThanOrEqual(5);
    const again = await seedDemo(t.db, { uploadsDir });
    expect(again.products).toBe(0);
    expect(await seedDemoIfEmpty(t.db, { uploadsDir })).toBeNull();
    expect({
      products: await countOf(products),
      features: await countOf(productFeatures),
      users: await countOf(user),
      accounts: await countOf(account),
      pages: await countOf(sitePages),
      questions: await countOf(productQuestions),
    }).toEqual(before);
  });
});

test("synthetic products for benchmarks are added in batches with valid, varied rows", async () => {
  const before = await countOf(products);
  await seedSyntheticProducts(t.db, 2_500);
  expect(await countOf(products)).toBe(before + 2_500);
  const [stats] = await t.db
    .select({
      categories: sql<number>`count(distinct ${products.category})::int`,
      inactive: sql<number>`count(*) filter (where not ${products.isActive})::int`,
      discounted: sql<number>`count(*) filter (where ${products.hasDiscount})::int`,
    })
    .from(products);
  expect(stats?.categories).toBe(5);
  expect(stats?.inactive).toBeGreaterThan(0);
  expect(stats?.discounted).toBeGreaterThan(0);
});
