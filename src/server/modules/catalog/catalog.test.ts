import { eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import type { ProductCard, ProductDetail, ProductList } from "#domain/catalog-schemas";
import { productSpecifications, products } from "#server/db/schema/catalog";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import { createTestApp, queryRows } from "#server/test/app";
import { signedInClient } from "#server/test/client";

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
    // With no product featured, Featured is the rest of its order: newest first.
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

describe("the Featured order (the default sort)", () => {
  let admin: Awaited<ReturnType<typeof signedInClient>>;
  beforeAll(async () => {
    admin = await signedInClient(t.app, "admin@stackbay.test", DEMO_PASSWORD);
  });
  const choose = async (productIds: string[]) => {
    const res = await admin.request("PUT", "/api/admin/featured-products", { productIds });
    expect(res.statusCode, res.body).toBe(200);
  };
  afterEach(() => choose([]));
  const ids = (items: ProductCard[]) => items.map((p) => p.id);
  /** What Featured must list: the chosen products that match, in the admins' order, then the rest newest first. */
  const featuredOrder = (chosen: string[], newest: string[]) => [
    ...chosen.filter((id) => newest.includes(id)),
    ...newest.filter((id) => !chosen.includes(id)),
  ];

  test("lists the products admins featured, in their order, then the rest newest first; Newest ignores them", async () => {
    const newest = ids(await all("?sort=newest"));
    // Neither the newest products nor in their order of age.
    const chosen = [newest[10]!, newest[3]!, newest[40]!];
    await choose(chosen);
    const featured = ids(await all(""));
    expect(featured.slice(0, 3)).toEqual(chosen);
    expect(featured).toEqual(featuredOrder(chosen, newest));
    expect(ids(await all("?sort=default"))).toEqual(featured);
    expect(ids(await all("?sort=newest"))).toEqual(newest);
    // Filters apply to the featured products as to the rest: only those matching lead.
    const [category] = await queryRows<{ category: string }>(
      t.db,
      sql`select category from products where id = ${chosen[1]}`,
    );
    const inCategory = ids(await all(`?category=${category!.category}&sort=newest`));
    expect(ids(await all(`?category=${category!.category}`))).toEqual(featuredOrder(chosen, inCategory));
  });

  test("a search still ranks by relevance, whatever is featured", async () => {
    const before = ids(await all("?search=cloud"));
    const newest = ids(await all("?sort=newest"));
    await choose([newest.find((id) => !before.includes(id))!, before.at(-1)!]);
    expect(ids(await all("?search=cloud"))).toEqual(before);
    expect(ids(await all("?search=cloud&sort=relevance"))).toEqual(before);
  });

  test("choosing featured products changes the cached listing at once", async () => {
    const url = "/api/products?pageSize=5";
    // Served from the catalogue cache the second time: same ETag, no new load. On PostgreSQL the previous
    // test's change may still be on its way by notification (another connection, a moment after the
    // commit) and clear the cache between the two: then the pair is asked again.
    const first = await vi.waitFor(async () => {
      const answer = await t.app.inject({ method: "GET", url });
      const loads = t.app.catalogueCache.stats.loads;
      const again = await t.app.inject({ method: "GET", url });
      expect(again.headers.etag).toBe(answer.headers.etag);
      expect(t.app.catalogueCache.stats.loads).toBe(loads);
      return answer;
    });
    const newest = ids((first.json() as ProductList).items);
    const chosen = ids((await list("?sort=newest&pageSize=3&page=4")).items);
    await choose(chosen);
    expect(ids((await list("?pageSize=5")).items)).toEqual([...chosen, ...newest.slice(0, 2)]);
    await choose([chosen[2]!]);
    expect(ids((await list("?pageSize=5")).items)).toEqual([chosen[2], ...newest.slice(0, 4)]);
    await choose([]);
    expect(ids((await list("?pageSize=5")).items)).toEqual(newest);
  });

  test("paging through every product by cursor and by page number gives each once, in order, at any page size", async () => {
    const newest = ids(await all("?sort=newest"));
    const chosen = [newest[20]!, newest[2]!, newest[31]!, newest[0]!, newest[12]!];
    await choose(chosen);
    const filters = ["", "&discount=true", "&category=software"];
    const expected = new Map<string, string[]>();
    for (const filter of filters) {
      expected.set(filter, featuredOrder(chosen, ids(await all(`?sort=newest${filter}`))));
    }
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 1, max: 12 }),
        fc.constantFrom(...filters),
        async (pageSize, numbered, filter) => {
          // Pages 1 to `numbered` by number (an offset, as a shared `?page=3` link), then by cursor.
          const seen: string[] = [];
          let after: string | null = null;
          for (let page = 1; page <= 200; page++) {
            const cursor: string = page > numbered && after ? `&after=${after}` : "";
            const res = await list(`?pageSize=${pageSize}&page=${page}${filter}${cursor}`);
            seen.push(...ids(res.items));
            after = res.nextCursor;
            if (res.items.length < pageSize || !after) break;
          }
          expect(seen).toEqual(expected.get(filter));
        },
      ),
      { numRuns: 10, seed: 30 },
    );
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
