import { type SQL, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { MAX_FACET_CHOICES } from "#domain/catalog";
import type { ProductCard, ProductList } from "#domain/catalog-schemas";
import type { PricingUnit } from "#domain/pricing-units";
import { encodeCursor } from "#domain/product-cursor";
import { products } from "#server/db/schema/catalog";
import { createTestApp, queryRows } from "#server/test/app";

/**
 * Facets and keyset paging over a fixture of products that share one made-up word, so the seeded
 * catalogue does not disturb the expected numbers.
 */
const WORD = "zorblax";

type Fixture = {
  category: string;
  vendor: string | null;
  price: string;
  rating: string | null;
  pricingUnit: PricingUnit | null;
  hasDiscount: boolean;
};

const vendors = ["Acme Zorb", "Bolt Zorb", "Crux Zorb"];
const categoriesCycle = ["saas", "apis", "hardware"];
const units: (PricingUnit | null)[] = ["month", "year", "api_call", null];
const fixture: Fixture[] = Array.from({ length: 30 }, (_, i) => ({
  category: categoriesCycle[i % 3]!,
  vendor: i % 7 === 6 ? null : vendors[i % 4 === 3 ? 0 : i % 3]!,
  // Repeated prices, so ties on the sort key are crossed by the id.
  price: `${(i % 10) * 10 + 5}.5000`,
  rating: i % 5 === 4 ? null : `${1 + (i % 4)}.${i % 10}`,
  pricingUnit: units[i % 4]!,
  hasDiscount: i % 2 === 0,
}));

let t: Awaited<ReturnType<typeof createTestApp>>;
let added = 0;

async function insert(values: Fixture, name: string) {
  await t.db.insert(products).values({ ...values, name, description: `A ${WORD} thing`, isActive: true });
}

beforeAll(async () => {
  t = await createTestApp({ seed: true });
  for (const [i, row] of fixture.entries()) await insert(row, `${WORD} item ${i}`);
  // Rated and unrated products with tied scores, so the rating sort's walk crosses ties and the step
  // from the last rated product to the unrated ones.
  await t.db.execute(sql`update products set rating_score = rating where name like ${`${WORD} item %`}`);
});
afterAll(() => t.close());

async function get(query: string) {
  return t.app.inject({ method: "GET", url: `/api/products?search=${WORD}${query}` });
}
async function list(query: string): Promise<ProductList> {
  const res = await get(query);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

type Filters = {
  category?: string;
  vendor?: string[];
  unit?: PricingUnit[];
  minPrice?: number;
  maxPrice?: number;
  minRating?: number;
  discount?: boolean;
};
type Facet = keyof Filters;

/** The fixture rows that pass every filter but `except` (the faceted-search rule), counted in JS. */
function matching(filters: Filters, except?: Facet) {
  return fixture.filter(
    (p) =>
      (except === "category" || !filters.category || p.category === filters.category) &&
      (except === "vendor" || !filters.vendor || (p.vendor !== null && filters.vendor.includes(p.vendor))) &&
      (except === "unit" ||
        !filters.unit ||
        (p.pricingUnit !== null && filters.unit.includes(p.pricingUnit))) &&
      ((except === "minPrice" && true) ||
        filters.minPrice === undefined ||
        Number(p.price) >= filters.minPrice) &&
      ((except === "minPrice" && true) ||
        filters.maxPrice === undefined ||
        Number(p.price) <= filters.maxPrice) &&
      (except === "minRating" ||
        filters.minRating === undefined ||
        (p.rating !== null && Number(p.rating) >= filters.minRating)) &&
      (except === "discount" || !filters.discount || p.hasDiscount),
  );
}

const tally = (values: (string | null)[]) => {
  const counts = new Map<string, number>();
  for (const value of values) if (value !== null) counts.set(value, (counts.get(value) ?? 0) + 1);
  return counts;
};
const asMap = (rows: { value: string | number; count: number }[]) =>
  new Map(rows.map((row) => [String(row.value), row.count]));

describe("facets", () => {
  const cases: [string, Filters][] = [
    ["no filter", {}],
    [
      "&category=saas&vendor=Acme%20Zorb&vendor=Bolt%20Zorb&discount=true&minRating=2",
      { category: "saas", vendor: ["Acme Zorb", "Bolt Zorb"], discount: true, minRating: 2 },
    ],
    [
      "&unit=month&unit=year&minPrice=20&maxPrice=70.5&vendor=Crux%20Zorb",
      { unit: ["month", "year"], minPrice: 20, maxPrice: 70.5, vendor: ["Crux Zorb"] },
    ],
  ];

  test.each(cases)("each facet counts with every other active filter: %s", async (query, filters) => {
    const res = await list(`${query === "no filter" ? "" : query}&facets=true`);
    const facets = res.facets!;
    expect(res.total).toBe(matching(filters).length);
    expect(res.totalCapped).toBe(false);

    expect(asMap(facets.categories)).toEqual(tally(matching(filters, "category").map((p) => p.category)));
    expect(asMap(facets.vendors)).toEqual(tally(matching(filters, "vendor").map((p) => p.vendor)));
    expect(asMap(facets.units)).toEqual(tally(matching(filters, "unit").map((p) => p.pricingUnit)));
    const rated = matching(filters, "minRating");
    expect(facets.ratings).toEqual(
      [4, 3, 2, 1].map((stars) => ({
        value: stars,
        count: rated.filter((p) => p.rating !== null && Number(p.rating) >= stars).length,
      })),
    );
    expect(facets.discounted).toBe(matching(filters, "discount").filter((p) => p.hasDiscount).length);

    const priced = matching(filters, "minPrice").map((p) => Number(p.price));
    expect(facets.price.min).toBe(Math.min(...priced));
    expect(facets.price.max).toBe(Math.max(...priced));
    expect(facets.price.buckets.reduce((sum, b) => sum + b.count, 0)).toBe(priced.length);
    for (const bucket of facets.price.buckets) {
      const inside = priced.filter(
        (price) => price >= bucket.from && (price < bucket.to || price === facets.price.max),
      );
      expect(bucket.count).toBeLessThanOrEqual(inside.length);
    }
  });

  test("without facets=true the listing does not compute them", async () => {
    expect((await list("")).facets).toBeNull();
  });

  test("a filter that matches nothing gives zero counts and an empty histogram", async () => {
    const res = await list("&minPrice=100000&facets=1");
    expect(res.items).toEqual([]);
    expect(res.total).toBe(0);
    expect(res.facets!.price.buckets.length).toBeGreaterThan(0); // the price facet ignores its own filter
    const none = await list("&category=no-such-category&facets=1");
    expect(none.facets!.vendors).toEqual([]);
    expect(none.facets!.vendorsTotal).toBe(0);
    expect(none.facets!.price).toEqual({ min: null, max: null, buckets: [] });
  });

  test("the vendor facet carries every vendor with matches, beyond the 20 shown first, and their number", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/products?facets=1" });
    expect(res.statusCode, res.body).toBe(200);
    const facets = (res.json() as ProductList).facets!;
    const rows = await queryRows<{ vendor: string; n: number }>(
      t.db,
      sql`select vendor, count(*)::int as n from products
          where is_active and moderation_status = 'approved' and vendor is not null group by vendor`,
    );
    expect(rows.length).toBeGreaterThan(MAX_FACET_CHOICES);
    expect(facets.vendorsTotal).toBe(rows.length);
    expect(asMap(facets.vendors)).toEqual(new Map(rows.map((row) => [row.vendor, row.n])));
  });
});

describe("bad filter input is a 400 with a message, never a 500", () => {
  const cursorFor = (sort: string, key: unknown, id: unknown) =>
    Buffer.from(JSON.stringify([1, sort, key, id])).toString("base64url");
  test.each([
    ["&minPrice=abc", "minPrice", "Minimum price must be an amount such as 10 or 9.99"],
    ["&minPrice=-5", "minPrice", "Minimum price must be an amount such as 10 or 9.99"],
    ["&minPrice=50&maxPrice=10", "maxPrice", "Maximum price must be at least the minimum price"],
    ["&minRating=5", "minRating", "Minimum rating must be 1, 2, 3 or 4"],
    ["&minRating=x", "minRating", "Minimum rating must be 1, 2, 3 or 4"],
    ["&unit=fortnight", "unit", "Unit must be one of"],
    ["&after=!!!garbled", "after", "This page link is not valid"],
    ["&after=bm90IGpzb24", "after", "This page link is not valid"],
    // A cursor made for another sort, and forged ones whose id or key would reach SQL unchecked.
    [
      `&sort=price-low&after=${cursorFor("newest", "2026-01-01T00:00:00.000000Z", "00000000-0000-4000-8000-000000000000")}`,
      "after",
      "This page link is not valid",
    ],
    [
      `&after=${cursorFor("default", "2026-01-01T00:00:00.000000Z", "1; drop table products")}`,
      "after",
      "not valid",
    ],
    [
      `&sort=price-low&after=${cursorFor("price-low", "1e309", "00000000-0000-4000-8000-000000000000")}`,
      "after",
      "not valid",
    ],
    [`&vendor=${Array.from({ length: 21 }, (_, i) => `v${i}`).join("&vendor=")}`, "vendor", "at most 20"],
  ])("%s", async (query, path, message) => {
    const res = await get(query);
    expect(res.statusCode, res.body).toBe(400);
    const body = res.json() as { code: string; message: string; details: { path: string }[] };
    expect(body.code).toBe("VALIDATION_ERROR");
    expect(body.message).toContain(message);
    expect(body.details[0]!.path).toContain(path);
  });
});

describe("keyset paging", () => {
  // With a search the default order is relevance, paged by number (see the next test).
  test.each(["newest", "price-low", "price-high", "rating"])(
    "walking every page of sort=%s while products are added gives each product once, with no gaps",
    async (sort) => {
      const before = new Set((await list(`&sort=${sort}&pageSize=48`)).items.map((p) => p.id));
      const seen: ProductCard[] = [];
      let after: string | null = null;
      for (let page = 1; page < 50; page++) {
        const res: ProductList = await list(
          `&sort=${sort}&pageSize=4&page=${page}${after ? `&after=${after}` : ""}`,
        );
        seen.push(...res.items);
        // A product that sorts ahead of every page (newest, cheapest, dearest, best rated), added
        // while the buyer reads: an offset would shift everything by one and repeat a product.
        added++;
        await insert(
          {
            category: "saas",
            vendor: "Acme Zorb",
            price: sort === "price-high" ? "999.0000" : "0.0100",
            rating: "5.0",
            pricingUnit: "month",
            hasDiscount: false,
          },
          `${WORD} late ${added}`,
        );
        await t.db.execute(
          sql`update products set rating_score = 4.99 where name = ${`${WORD} late ${added}`}`,
        );
        after = res.nextCursor;
        if (!after) break;
      }
      const ids = seen.map((p) => p.id);
      expect(new Set(ids).size).toBe(ids.length);
      for (const id of before) expect(ids).toContain(id);
    },
  );

  test("a page number without a cursor still works (shared ?page=3 link) and hands on a cursor", async () => {
    const all = (await list("&sort=price-low&pageSize=48")).items.map((p) => p.id);
    const third = await list("&sort=price-low&pageSize=5&page=3");
    expect(third.items.map((p) => p.id)).toEqual(all.slice(10, 15));
    const fourth = await list(`&sort=price-low&pageSize=5&page=4&after=${third.nextCursor}`);
    expect(fourth.items.map((p) => p.id)).toEqual(all.slice(15, 20));
  });

  test("search results in relevance order (the default with a search) go by page number, without a cursor", async () => {
    const first = await list("&pageSize=4");
    expect(first.nextCursor).toBeNull();
    const second = await list("&pageSize=4&page=2");
    expect(second.items).toHaveLength(4);
    const firstIds = new Set(first.items.map((p) => p.id));
    expect(second.items.some((p) => firstIds.has(p.id))).toBe(false);
    // A cursor sent along anyway is not a seek in an order it was not made for: page 2 is page 2.
    const cursor = encodeCursor({
      sort: "default",
      key: "2000-01-01T00:00:00.000000Z",
      id: "00000000-0000-4000-8000-000000000000",
    });
    expect((await list(`&pageSize=4&page=2&after=${cursor}`)).items).toEqual(second.items);
  });

  test("the last page has no next cursor", async () => {
    // Products were added straight to the database; the notification that clears the cache may still be on its way.
    t.app.catalogueCache.clear();
    const total = (await list("&sort=newest")).total;
    const last = await list(`&sort=newest&pageSize=48&page=${Math.ceil(total / 48)}`);
    expect(last.nextCursor).toBeNull();
    const cursor = encodeCursor({
      sort: "newest",
      key: "2000-01-01T00:00:00.000000Z",
      id: "00000000-0000-4000-8000-000000000000",
    });
    const beyond = await list(`&sort=newest&after=${cursor}`);
    expect(beyond.items).toEqual([]);
    expect(beyond.nextCursor).toBeNull();
  });

  /** The 21st newest product, a cursor's key and id deep enough to seek from. */
  const deepRow = async () =>
    (
      await queryRows<{ id: string; created_at: string }>(
        t.db,
        sql`select id, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created_at from products order by created_at desc, id desc offset 20 limit 1`,
      )
    )[0]!;
  /**
   * The plan of a page's statement. The fixture is small, so the planner is kept from preferring a plain
   * scan; what matters is that the seek condition is an index condition, which makes its cost
   * independent of the depth.
   */
  async function planWithIndexes(query: SQL) {
    await t.db.execute(sql`set enable_seqscan = off`);
    await t.db.execute(sql`set enable_bitmapscan = off`);
    try {
      const plan = await queryRows<{ "QUERY PLAN": string }>(t.db, sql`explain ${query}`);
      return plan.map((line) => line["QUERY PLAN"]).join("\n");
    } finally {
      await t.db.execute(sql`reset enable_seqscan`);
      await t.db.execute(sql`reset enable_bitmapscan`);
    }
  }

  test("a deep page is an index range scan from the cursor, not a walk past the pages before it", async () => {
    const row = await deepRow();
    const text = await planWithIndexes(
      sql`select id from products where (is_active and moderation_status = 'approved')
        and (created_at, id) < (${row.created_at}::timestamptz, ${row.id}::uuid)
        order by created_at desc, id desc limit 25`,
    );
    expect(text).toMatch(/Index Scan Backward using products_created_at_id_index/);
    expect(text).toMatch(/Index Cond: \(ROW\(created_at, id\) < ROW/);
  });

  test("Featured reads the products not featured off the created_at index, from the start and from a cursor", async () => {
    const row = await deepRow();
    for (const seek of [
      sql``,
      sql`and (created_at, id) < (${row.created_at}::timestamptz, ${row.id}::uuid)`,
    ]) {
      const text = await planWithIndexes(
        sql`select id from products where (is_active and moderation_status = 'approved')
          and not exists (select 1 from featured_products f where f.product_id = products.id) ${seek}
          order by created_at desc, id desc limit 25`,
      );
      expect(text).toMatch(/Index Scan Backward using products_created_at_id_index/);
      expect(text).not.toMatch(/Sort/);
    }
  });
});

describe("facets of a large match set", () => {
  test("are estimated from a sample only above SEARCH_FACETS_EXACT_UP_TO, and say so", async () => {
    const exact = await list("&facets=true&discount=true&minRating=2");
    expect(exact.facets?.estimated).toBe(false);

    // The same fixture with a bound below its 30 matches. The table is far smaller than the sample,
    // so the sample is the whole table and the scaled counts equal the exact ones.
    const small = await createTestApp({ seed: true, env: { SEARCH_FACETS_EXACT_UP_TO: "10" } });
    try {
      for (const [i, row] of fixture.entries()) {
        await small.db
          .insert(products)
          .values({ ...row, name: `${WORD} item ${i}`, description: `A ${WORD} thing`, isActive: true });
      }
      const read = async (search: string, rest: string) =>
        (
          await small.app.inject({ url: `/api/products?search=${encodeURIComponent(search)}${rest}` })
        ).json<ProductList>();
      const estimated = await read(WORD, "&facets=true&discount=true&minRating=2");
      expect(estimated.facets).toEqual({ ...exact.facets, estimated: true });
      expect(estimated.total).toBe(exact.total);
      // One match: under the bound, counted exactly.
      expect((await read(`${WORD} item 5`, "&facets=true")).facets?.estimated).toBe(false);
    } finally {
      await small.close();
    }
  });
});
