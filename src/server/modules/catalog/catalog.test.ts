import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ProductCard, ProductDetail, ProductList } from "#domain/catalog-schemas";
import { productSpecifications, products } from "#server/db/schema/catalog";
import { createTestApp, queryRows } from "#server/test/app";

let t: Awaited<ReturnType<typeof createTestApp>>;
let activeCount: number;
let inactiveId: string;

beforeAll(async () => {
  t = await createTestApp({ seed: true });
  // One inactive product that must never show up publicly.
  const [row] = await t.db
    .insert(products)
    .values({
      name: "Retired Cloud Widget",
      vendor: "Gone Corp",
      category: "saas",
      price: "1.0000",
      isActive: false,
    })
    .returning({ id: products.id });
  inactiveId = row!.id;
  const [c] = await t.db
    .select({ n: sql<number>`count(*)::int` })
    .from(products)
    .where(eq(products.isActive, true));
  activeCount = c!.n;
});
afterAll(() => t.close());

async function list(query = ""): Promise<ProductList> {
  const res = await t.app.inject({ method: "GET", url: `/api/products${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function all(query: string): Promise<ProductCard[]> {
  const items: ProductCard[] = [];
  for (let page = 1; ; page++) {
    const res = await list(`${query}${query ? "&" : "?"}pageSize=48&page=${page}`);
    items.push(...res.items);
    if (items.length >= res.total) return items;
  }
}

describe("GET /api/products", () => {
  test("lists active products newest first with the total count and the page size", async () => {
    const res = await list();
    expect(res.total).toBe(activeCount);
    expect(res.page).toBe(1);
    expect(res.pageSize).toBe(24);
    expect(res.items).toHaveLength(24);
    const everything = await all("");
    expect(everything).toHaveLength(activeCount);
    expect(new Set(everything.map((p) => p.id)).size).toBe(activeCount);
    expect(everything.some((p) => p.id === inactiveId)).toBe(false);
  });

  test("search matches name, description or vendor, case-insensitively, as a substring", async () => {
    const byName = await all("?search=nimbus%20CRM");
    expect(byName.map((p) => p.name)).toContain("Nimbus CRM Pro");
    const byVendor = await all("?search=corvane");
    expect(byVendor.length).toBeGreaterThan(0);
    for (const p of byVendor) expect(p.vendor?.toLowerCase()).toContain("corvane");
    const cloud = await all("?search=CLOUD");
    const [{ n }] = (await queryRows<{ n: number }>(
      t.db,
      sql`
      select count(*)::int as n from products where is_active and
        (name ilike '%cloud%' or description ilike '%cloud%' or vendor ilike '%cloud%')`,
    )) as [{ n: number }];
    expect(cloud).toHaveLength(n);
    expect(cloud.length).toBeGreaterThan(0);
    expect(cloud.some((p) => p.name === "Retired Cloud Widget")).toBe(false);
  });

  test("search wildcards are taken literally", async () => {
    expect((await list("?search=%25")).total).toBe(0);
    expect((await list("?search=_")).total).toBe(0);
  });

  test("category filters by slug; 'all' and an unknown slug behave as expected", async () => {
    const hardware = await all("?category=hardware");
    expect(hardware.length).toBeGreaterThan(0);
    for (const p of hardware) expect(p.category).toBe("hardware");
    expect((await list("?category=all")).total).toBe(activeCount);
    expect((await list("?category=no-such-category")).total).toBe(0);
  });

  test("discounts only returns discounted products", async () => {
    const discounted = await all("?discount=true");
    expect(discounted.length).toBeGreaterThan(0);
    expect(discounted.length).toBeLessThan(activeCount);
    for (const p of discounted) expect(p.hasDiscount).toBe(true);
  });

  test("every sort orders the whole result, the rating sort by Bayesian score with unrated last", async () => {
    const low = await all("?sort=price-low");
    expect(low.map((p) => p.price)).toEqual([...low.map((p) => p.price)].sort((a, b) => a - b));
    const high = await all("?sort=price-high");
    expect(high.map((p) => p.price)).toEqual([...high.map((p) => p.price)].sort((a, b) => b - a));
    const rated = await all("?sort=rating");
    const ratings = rated.map((p) => p.rating);
    const firstNull = ratings.indexOf(null);
    expect(firstNull).toBeGreaterThan(0);
    expect(ratings.slice(firstNull).every((r) => r === null)).toBe(true);
    const byScore = await t.db
      .select({ id: products.id })
      .from(products)
      .where(eq(products.isActive, true))
      .orderBy(sql`${products.ratingScore} desc nulls last`, products.id);
    expect(rated.map((p) => p.id)).toEqual(byScore.map((p) => p.id));
    const [newest, byDefault] = [await all("?sort=newest"), await all("?sort=default")];
    expect(newest.map((p) => p.id)).toEqual(byDefault.map((p) => p.id));
  });

  test("filters combine: category + discount + search + sort", async () => {
    const combined = await all("?category=apis&discount=1&sort=price-low&search=api");
    const expected = (await all("?sort=price-low")).filter(
      (p) => p.category === "apis" && p.hasDiscount && /api/i.test(p.name + p.vendor),
    );
    // Description matches may add more; everything returned satisfies every filter.
    for (const p of combined) {
      expect(p.category).toBe("apis");
      expect(p.hasDiscount).toBe(true);
    }
    expect(combined.map((p) => p.id)).toEqual(expect.arrayContaining(expected.map((p) => p.id)));
    expect(combined.map((p) => p.price)).toEqual([...combined.map((p) => p.price)].sort((a, b) => a - b));
  });

  test("pages do not overlap and a page past the end is empty with the same total", async () => {
    const one = await list("?pageSize=10&page=1");
    const two = await list("?pageSize=10&page=2");
    expect(one.items.map((p) => p.id)).not.toEqual(expect.arrayContaining([two.items[0]!.id]));
    const past = await list("?pageSize=10&page=999");
    expect(past.items).toEqual([]);
    expect(past.total).toBe(activeCount);
  });

  test.each([
    ["?sort=cheapest", "Sort must be one of"],
    ["?page=0", "Page must be 1 or more"],
    ["?page=abc", "Page must be a whole number"],
    ["?pageSize=10000", "Page size must be 48 or less"],
    ["?pageSize=0", "Page size must be 1 or more"],
    [`?search=${"x".repeat(5000)}`, "Search text can be at most 100 characters"],
    ["?discount=maybe", "must be true or false"],
    ["?category=DROP%20TABLE", "Category must be 'all' or a category slug"],
  ])("%s is a 400 with a clear message", async (query, message) => {
    const res = await t.app.inject({ method: "GET", url: `/api/products${query}` });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe("VALIDATION_ERROR");
    expect(res.json().message).toContain(message);
  });

  test("answers may be stored by shared caches but are revalidated on every load, so edits show at once", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/products" });
    expect(res.headers["cache-control"]).toBe("public, no-cache");
  });
});

describe("GET /api/products/:id", () => {
  test("returns an active product with its features and specifications in order", async () => {
    const [first] = (await list("?search=Nimbus%20CRM%20Pro")).items;
    const res = await t.app.inject({ method: "GET", url: `/api/products/${first!.id}` });
    expect(res.statusCode).toBe(200);
    const detail: ProductDetail = res.json();
    expect(detail.name).toBe("Nimbus CRM Pro");
    expect(detail.features.length).toBeGreaterThanOrEqual(3);
    expect(detail.features[0]?.feature).toBe("Drag-and-drop deal pipelines");
    expect(detail.specifications.length).toBeGreaterThanOrEqual(3);
    expect(detail.images.length).toBeGreaterThanOrEqual(1);
    expect(typeof detail.price).toBe("number");
  });

  test("a product without specifications gets an empty list", async () => {
    const [first] = (await list()).items;
    await t.db.delete(productSpecifications).where(eq(productSpecifications.productId, first!.id));
    const detail: ProductDetail = (
      await t.app.inject({ method: "GET", url: `/api/products/${first!.id}` })
    ).json();
    expect(detail.specifications).toEqual([]);
  });

  test("inactive, unknown and malformed ids are 404", async () => {
    for (const id of [inactiveId, "00000000-0000-4000-8000-000000000000", "not-a-uuid"]) {
      const res = await t.app.inject({ method: "GET", url: `/api/products/${id}` });
      expect(res.statusCode, id).toBe(404);
      expect(res.json()).toEqual({ code: "PRODUCT_NOT_FOUND", message: "Product not found." });
    }
  });
});

describe("reference data", () => {
  test("categories, FX rates and content blocks", async () => {
    const cats = (await t.app.inject({ method: "GET", url: "/api/categories" })).json();
    expect(cats.map((c: { slug: string }) => c.slug).sort()).toEqual([
      "apis",
      "hardware",
      "saas",
      "services",
      "software",
    ]);
    const rates = (await t.app.inject({ method: "GET", url: "/api/fx-rates" })).json();
    expect(rates).toContainEqual({ currencyCode: "INR", rateToUsd: 83.2, fxBuffer: 0.02 });
    const blocks = (await t.app.inject({ method: "GET", url: "/api/content-blocks" })).json();
    expect(blocks).toContainEqual({ key: "home.hero.title", content: "Welcome to Stackbay" });
  });
});
