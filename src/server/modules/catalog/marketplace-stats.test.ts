import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import type { MarketplaceStats } from "#domain/catalog-schemas";
import { countLabel } from "#domain/marketplace-stats";
import { products } from "#server/db/schema/catalog";
import { createTestApp } from "#server/test/app";

let t: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  t = await createTestApp({ seed: true });
});
afterAll(() => t.close());

async function stats() {
  const res = await t.app.inject({ url: "/api/marketplace-stats" });
  expect(res.statusCode, res.body).toBe(200);
  return { res, body: res.json<MarketplaceStats>() };
}

const one = async <T>(query: ReturnType<typeof sql>) =>
  ((await t.db.execute(query)) as unknown as { rows: T[] }).rows[0] as T;

describe("GET /api/marketplace-stats", () => {
  test("counts the demo marketplace as it is: products on sale, vendors, countries, customers, mean rating", async () => {
    const { res, body } = await stats();
    // Public and the same for everyone: cached, and usable by the server's drawing of pages.
    expect(res.headers["cache-control"]).toBe("public, no-cache");
    expect(res.headers.etag).toBeTruthy();
    const expected = await one<{ products: number; vendors: number; customers: number; mean: string }>(sql`
      select
        (select count(*)::int from products where is_active and moderation_status = 'approved') as products,
        (select count(distinct lower(vendor))::int from products where is_active and moderation_status = 'approved') as vendors,
        (select count(distinct user_id)::int from orders where is_paid) as customers,
        (select round(avg(r.rating), 1)::text from reviews r join products p on p.id = r.product_id
          where r.status = 'published' and p.is_active and p.moderation_status = 'approved') as mean`);
    expect(body).toMatchObject({
      products: expected.products,
      vendors: expected.vendors,
      customers: expected.customers,
      rating: expected.mean,
    });
    // The demo: 60-odd products from 28 vendors in several countries, six buyers who reviewed them and
    // the demo buyer with their subscriptions.
    expect(countLabel(body.products)).toBe("60+");
    expect(body.customers).toBe(7);
    expect(body.countries).toBeGreaterThan(5);
    expect(body.reviews).toBeGreaterThan(0);
  });

  test("follows the catalogue: a product taken off sale leaves the count on the next request", async () => {
    const before = (await stats()).body.products;
    const [product] = await t.db
      .select({ id: products.id })
      .from(products)
      .where(eq(products.isActive, true))
      .limit(1);
    const clears = t.app.catalogueCache.stats.clears;
    await t.db.update(products).set({ isActive: false }).where(eq(products.id, product!.id));
    await vi.waitFor(() => expect(t.app.catalogueCache.stats.clears).toBeGreaterThan(clears));
    expect((await stats()).body.products).toBe(before - 1);
  });
});
