import { and, asc, count, desc, eq, gte, inArray, type SQL, sql } from "drizzle-orm";
import { COUNT_CAP, PRICE_BUCKETS, VENDOR_FACET_LIMIT } from "#domain/catalog";
import type { ProductDetail, ProductFacets, ProductListQuery } from "#domain/catalog-schemas";
import { type PricingUnit, pricingUnits } from "#domain/pricing-units";
import { decodeCursor, encodeCursor, isFeaturedPositionKey } from "#domain/product-cursor";
import { summariseRatings } from "#domain/reviews";
import { indexableSpellings } from "#domain/typos";
import { type Database, rowsOf } from "#server/db/client";
import { onSale, type ProductRow, productColumns, toProductCard } from "#server/db/products";
import { categories, featuredProducts, fxRates, products, storefronts } from "#server/db/schema/catalog";
import { siteContentBlocks } from "#server/db/schema/content";
import { orders } from "#server/db/schema/orders";
import { reviews } from "#server/db/schema/reviews";
import { searchSynonyms } from "#server/db/schema/search";
import { containsPattern, escapeLike } from "#server/lib/like";
import { didYouMean, type SearchTerm, searchTerms } from "#server/modules/catalog/search";
import { livePlansJson } from "#server/modules/plans/repository";

/** Every search synonym: a term and the words it also finds. */
export async function loadSynonyms(db: Database) {
  return db.select({ term: searchSynonyms.term, synonyms: searchSynonyms.synonyms }).from(searchSynonyms);
}

/** A stretch of a sort's order: the products it holds (besides the listing's filters) and their order. */
type Stretch = { where?: SQL; order: SQL[] };

/**
 * Each sort's order, its key as exact text for the cursor, and where it goes on after a cursor. Every
 * order ends with the id, and each stretch has an index for its order, so a seek is an index range scan
 * whatever the depth. An order is read as stretches, one after the other until the page is full: one
 * for most sorts, two where no single index holds the whole order (rated, then unrated products after
 * a cursor; featured, then the rest).
 */
type SortPlan = {
  start: Stretch[];
  key: SQL<string | null>;
  after: (key: string | null, id: string) => Stretch[];
};
/** A sort read in one order throughout: from the start, and after a cursor through `after`'s conditions. */
const inOneOrder = (
  order: SQL[],
  key: SQL<string | null>,
  after: (key: string | null, id: string) => SQL[],
): SortPlan => ({
  start: [{ order }],
  key,
  after: (cursorKey, id) => after(cursorKey, id).map((where) => ({ where, order })),
});
const createdAtKey = sql<string>`to_char(${products.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
const newestOrder = [desc(products.createdAt), desc(products.id)];
const newerThan = (key: string | null, id: string) =>
  sql`(${products.createdAt}, ${products.id}) < (${key}::timestamptz, ${id}::uuid)`;
const newestFirst = inOneOrder(newestOrder, createdAtKey, (key, id) => [newerThan(key, id)]);

// Spelled out: drizzle leaves columns unqualified when a select reads one table, and inside these
// subqueries an unqualified created_at or id would be featured_products' own (or nothing).
const featuredPosition = sql<number>`(select f.position from ${featuredProducts} f where f.product_id = products.id)`;
const isFeatured = (after?: SQL) =>
  sql`exists (select 1 from ${featuredProducts} f where f.product_id = products.id${after ? sql` and ${after}` : sql``})`;
const notFeatured = sql`not exists (select 1 from ${featuredProducts} f where f.product_id = products.id)`;
const featuredOrder = [sql`${featuredPosition} asc`, asc(products.id)];
/**
 * "Featured", the default: the products admins chose on /admin/featured (`featured_products`, at most
 * a handful) in their order, then every other product newest first. Two stretches: the chosen ones
 * through their table, the rest off the created_at index as Newest reads it. A cursor's key is the
 * position (digits) while it is among the chosen, the creation time after (product-cursor.ts).
 */
const featuredFirst: SortPlan = {
  start: [
    { where: isFeatured(), order: featuredOrder },
    { where: notFeatured, order: newestOrder },
  ],
  key: sql<string>`coalesce(${featuredPosition}::text, ${createdAtKey})`,
  after: (key, id) =>
    key !== null && isFeaturedPositionKey(key)
      ? [
          {
            where: isFeatured(sql`(f.position, f.product_id) > (${Number(key)}::int, ${id}::uuid)`),
            order: featuredOrder,
          },
          { where: notFeatured, order: newestOrder },
        ]
      : [{ where: and(notFeatured, newerThan(key, id)), order: newestOrder }],
};
const sortPlans: Record<ProductListQuery["sort"], SortPlan> = {
  default: featuredFirst,
  newest: newestFirst,
  "price-low": inOneOrder(
    [asc(products.price), asc(products.id)],
    sql<string>`${products.price}::text`,
    (key, id) => [sql`(${products.price}, ${products.id}) > (${key}::numeric, ${id}::uuid)`],
  ),
  "price-high": inOneOrder(
    [desc(products.price), desc(products.id)],
    sql<string>`${products.price}::text`,
    (key, id) => [sql`(${products.price}, ${products.id}) < (${key}::numeric, ${id}::uuid)`],
  ),
  // The Bayesian score (decision 0012), not the plain mean: one 5-star review does not lead the list.
  // Its order mixes directions (score down, id up) and puts unrated products last, which no row
  // comparison expresses, and an OR of "lower or unrated" would make PostgreSQL walk the index from the
  // top. So: the rated rest from the cursor's score down (`score <= k` bounds the index scan; only ties
  // are filtered), then, if the page is not full, the unrated ones.
  rating: inOneOrder(
    [sql`${products.ratingScore} desc nulls last`, asc(products.id)],
    sql<string | null>`${products.ratingScore}::text`,
    (key, id) =>
      key === null
        ? [sql`(${products.ratingScore} is null and ${products.id} > ${id}::uuid)`]
        : [
            sql`(${products.ratingScore} <= ${key}::numeric and not (${products.ratingScore} = ${key}::numeric and ${products.id} <= ${id}::uuid))`,
            sql`${products.ratingScore} is null`,
          ],
  ),
  // Without a query there is nothing to be relevant to: the featured order. With one, the order is the
  // relevance score (search.ts), which no index holds: those pages are read by offset, see listProducts.
  relevance: featuredFirst,
};

/**
 * Pages of a large search deeper than this many rows are ranked by scoring every match, as before tiers:
 * each tier would read that many rows, which stops paying off as pages get deep.
 */
const RANK_BY_TIERS_UP_TO_ROWS = 500;

/**
 * How far above COUNT_CAP the planner's estimate of a search's matches must be for the count to be
 * skipped. Its estimates of trigram LIKEs were within 25 % at 1,000,000 products (191,738 for 190,000;
 * 11,621 for 9,500), and combined filters are estimated as independent: twice the cap leaves room.
 */
const ESTIMATE_MARGIN = 2;

/** The planner's estimate of the rows on sale matching `where` (planning only, a millisecond or two). */
async function estimatedRows(db: Database, where: SQL | undefined): Promise<number> {
  const [row] = await rowsOf<Record<string, unknown>>(
    db,
    sql`explain (format json) select 1 from ${products} where ${where}`,
  );
  const value = row ? Object.values(row)[0] : undefined;
  const plan = (typeof value === "string" ? JSON.parse(value) : value) as [{ Plan: { "Plan Rows": number } }];
  return plan[0].Plan["Plan Rows"];
}

type CountTotal = (key: string, count: () => Promise<number>) => Promise<number>;
type CacheFacets = (key: string, load: () => Promise<ProductFacets>) => Promise<ProductFacets>;
type Filter = "search" | "category" | "discount" | "vendor" | "unit" | "price" | "rating";

/** The listing's filters as conditions, by name, so each facet can leave its own out. */
function filterConditions(query: ProductListQuery, terms: SearchTerm[]): Record<Filter, SQL | undefined> {
  const price = [
    query.minPrice === undefined ? undefined : sql`${products.price} >= ${query.minPrice}::numeric`,
    query.maxPrice === undefined ? undefined : sql`${products.price} <= ${query.maxPrice}::numeric`,
  ].filter((c) => c !== undefined);
  return {
    search: searchCondition(terms),
    category: query.category !== "all" ? eq(products.category, query.category) : undefined,
    discount: query.discount ? eq(products.hasDiscount, true) : undefined,
    vendor: query.vendor.length > 0 ? inArray(products.vendor, query.vendor) : undefined,
    unit: query.unit.length > 0 ? inArray(products.pricingUnit, query.unit) : undefined,
    price: price.length > 0 ? and(...price) : undefined,
    rating: query.minRating === undefined ? undefined : gte(products.rating, String(query.minRating)),
  };
}

const whereAll = (filters: Record<Filter, SQL | undefined>, except?: Filter) =>
  and(
    onSale(),
    ...Object.entries(filters)
      .filter(([name, condition]) => name !== except && condition !== undefined)
      .map(([, condition]) => condition),
  );

/** The key a count or facet set is cached under: the filters only, never the page or the sort. */
function filtersKey(query: ProductListQuery) {
  return JSON.stringify([
    query.search.toLowerCase(),
    query.category,
    query.discount,
    [...query.vendor].sort(),
    [...query.unit].sort(),
    query.minPrice ?? null,
    query.maxPrice ?? null,
    query.minRating ?? null,
  ]);
}

const facetFilters = ["category", "vendor", "unit", "price", "rating", "discount"] as const;
type FacetFilter = (typeof facetFilters)[number];

/**
 * Counts for every facet; each applies every active filter but its own, so the panel shows what
 * choosing another value would give. Matching the search text is most of the cost, so the counts share
 * one scan: it reads the rows that fail at most one facet filter, and each count keeps, with
 * `filter (where …)`, the rows that pass all the others; grouping sets give the category, vendor and
 * unit lists from that same scan. The price histogram needs the range first, so it is a second
 * statement, run in parallel.
 */
export async function productFacets(
  db: Database,
  query: ProductListQuery,
  terms: SearchTerm[],
  exactUpTo = Number.POSITIVE_INFINITY,
): Promise<ProductFacets> {
  const filters = filterConditions(query, terms);
  const active = facetFilters.filter((name) => filters[name] !== undefined);
  // A condition on a null column is null, not false: a row with no vendor fails a vendor filter.
  const passes = (name: FacetFilter) => sql`coalesce(${filters[name]}, false)`;
  const others = (except: FacetFilter) => {
    const rest = active.filter((name) => name !== except);
    return rest.length === 0 ? sql`true` : sql.join(rest.map(passes), sql` and `);
  };
  const failures = sql.join(
    active.map((name) => sql`(case when ${passes(name)} then 0 else 1 end)`),
    sql` + `,
  );
  const counted = (condition: SQL) => sql<number>`(count(*) filter (where ${condition}))::int`;
  const ratingAtLeast = (stars: number) =>
    counted(sql`${others("rating")} and ${products.rating} >= ${sql.raw(String(stars))}`);

  const scanned = and(onSale(), filters.search, active.length > 1 ? sql`${failures} <= 1` : undefined);
  // The scan reads every match of the search (the other filters are tested row by row): with more
  // than `exactUpTo`, the counts are taken over a sample of the table's pages and scaled (decision
  // 0017). A word in 20 % of 1,000,000 products is 200,000 rows, 400 ms exact.
  const percent = (await readsMoreThan(db, and(onSale(), filters.search), exactUpTo))
    ? await samplePercent(db)
    : null;
  // Drizzle takes any SQL as the table of a select, but only checks columns it can see in it: those
  // selected as plain columns are wrapped in sql (they are read from this source, named "products").
  const source = (
    percent === null ? products : sql`${products} tablesample system (${percent}) repeatable (0)`
  ) as typeof products;
  const scaled = (n: number) => (percent === null ? n : Math.round((n * 100) / percent));

  const [rows, price] = await Promise.all([
    db
      .select({
        set: sql<number>`grouping(${products.category}, ${products.vendor}, ${products.pricingUnit})::int`,
        category: sql<string>`${products.category}`,
        vendor: sql<string | null>`${products.vendor}`,
        unit: sql<PricingUnit | null>`${products.pricingUnit}`,
        byCategory: counted(others("category")),
        byVendor: counted(others("vendor")),
        byUnit: counted(others("unit")),
        r4: ratingAtLeast(4),
        r3: ratingAtLeast(3),
        r2: ratingAtLeast(2),
        r1: ratingAtLeast(1),
        discounted: counted(sql`${others("discount")} and ${products.hasDiscount}`),
      })
      .from(source)
      .where(scanned)
      .groupBy(
        sql`grouping sets ((${products.category}), (${products.vendor}), (${products.pricingUnit}), ())`,
      ),
    priceHistogram(db, whereAll(filters, "price"), source),
  ]);
  // grouping() is a bit mask over (category, vendor, unit): 3 = by category, 5 = by vendor,
  // 6 = by unit, 7 = the whole set.
  const categories = rows
    .filter((row) => row.set === 3 && row.byCategory > 0)
    .map((row) => ({ value: row.category, count: scaled(row.byCategory) }))
    .sort((a, b) => b.count - a.count || a.value.localeCompare(b.value));
  const chosen = new Set(query.vendor);
  const allVendors = rows
    .filter((row) => row.set === 5 && row.vendor !== null && row.byVendor > 0)
    .map((row) => ({ value: row.vendor as string, count: scaled(row.byVendor) }))
    // Chosen vendors first, so a chosen vendor with few matches stays on the list to be unticked.
    .sort(
      (a, b) =>
        Number(chosen.has(b.value)) - Number(chosen.has(a.value)) ||
        b.count - a.count ||
        a.value.localeCompare(b.value),
    );
  const vendors = allVendors.slice(0, VENDOR_FACET_LIMIT);
  const order = new Map(pricingUnits.map((unit, index) => [unit, index]));
  const units = rows
    .filter((row) => row.set === 6 && row.unit !== null && row.byUnit > 0)
    .map((row) => ({ value: row.unit as PricingUnit, count: scaled(row.byUnit) }))
    .sort((a, b) => (order.get(a.value) ?? 0) - (order.get(b.value) ?? 0));
  const whole = rows.find((row) => row.set === 7);
  return {
    categories,
    vendors,
    vendorsTotal: allVendors.length,
    units,
    ratings: [
      { value: 4, count: scaled(whole?.r4 ?? 0) },
      { value: 3, count: scaled(whole?.r3 ?? 0) },
      { value: 2, count: scaled(whole?.r2 ?? 0) },
      { value: 1, count: scaled(whole?.r1 ?? 0) },
    ],
    discounted: scaled(whole?.discounted ?? 0),
    price: { ...price, buckets: price.buckets.map((bucket) => ({ ...bucket, count: scaled(bucket.count) })) },
    estimated: percent !== null,
  };
}

/** How many products match `where`, counting no further than limit + 1 (that many rows read at most). */
async function countUpTo(db: Database, where: SQL | undefined, limit: number) {
  const capped = db
    .select({ one: sql`1` })
    .from(products)
    .where(where)
    .limit(limit + 1)
    .as("capped");
  return (await db.select({ n: count() }).from(capped))[0]?.n ?? 0;
}

/** Whether more than `limit` products match `where` (reads at most limit + 1 of them). */
async function readsMoreThan(db: Database, where: SQL | undefined, limit: number) {
  return Number.isFinite(limit) && (await countUpTo(db, where, limit)) > limit;
}

/** Rows a facet estimate reads: enough for counts within a few per cent from a few hundred up. */
const FACET_SAMPLE_ROWS = 20_000;

/**
 * The share of the table's pages (in per cent, as TABLESAMPLE takes it) that holds about
 * FACET_SAMPLE_ROWS rows, from the row count PostgreSQL keeps; the whole table when it has none yet.
 */
async function samplePercent(db: Database): Promise<number> {
  const [row] = await rowsOf<{ rows: number }>(
    db,
    sql`select reltuples::float8 as rows from pg_class where oid = 'products'::regclass`,
  );
  const rows = Number(row?.rows ?? 0);
  return rows <= 0 ? 100 : Math.min(100, Math.round(((FACET_SAMPLE_ROWS * 100) / rows) * 1000) / 1000);
}

/**
 * The lowest and highest price of the matches and how many fall in each of PRICE_BUCKETS bands. Prices
 * run from fractions of a cent (per API call) to thousands of dollars, so the bands are equal on a log
 * scale (of price + 1); equal widths would put nearly everything in the first bar.
 */
async function priceHistogram(
  db: Database,
  where: SQL | undefined,
  source: typeof products,
): Promise<ProductFacets["price"]> {
  const matching = db.$with("matching").as(
    db
      // Bands are only drawn, so the log is taken of a float: ln() of a numeric is six times slower.
      .select({
        price: sql<string>`${products.price}`.as("price"),
        scaled: sql<number>`ln(${products.price}::float8 + 1)`.as("scaled"),
      })
      .from(source)
      .where(where),
  );
  const bounds = db.$with("bounds").as(
    db
      .select({
        lo: sql<string>`min(${matching.price})`.as("lo"),
        hi: sql<string>`max(${matching.price})`.as("hi"),
        slo: sql<string>`min(${matching.scaled})`.as("slo"),
        shi: sql<string>`max(${matching.scaled})`.as("shi"),
      })
      .from(matching),
  );
  // The bucket count is inlined, not a parameter, so the grouped expression is the selected one.
  const bucketCount = sql.raw(String(PRICE_BUCKETS));
  const bucket = sql<number>`case when ${bounds.shi} = ${bounds.slo} then 1 else least(width_bucket(${matching.scaled}, ${bounds.slo}, ${bounds.shi}, ${bucketCount}), ${bucketCount}) end`;
  const rows = await db
    .with(matching, bounds)
    .select({
      lo: sql<string>`${bounds.lo}::text`,
      hi: sql<string>`${bounds.hi}::text`,
      bucket: sql<number>`${bucket}::int`,
      count: sql<number>`count(*)::int`,
    })
    .from(matching)
    .crossJoin(bounds)
    .groupBy(bounds.lo, bounds.hi, bucket)
    .orderBy(bucket);
  const first = rows[0];
  if (!first) return { min: null, max: null, buckets: [] };
  // Band edges are only drawn, never charged, so plain numbers are fine here.
  const lo = Number(first.lo);
  const hi = Number(first.hi);
  const counts = new Map(rows.map((row) => [row.bucket, row.count]));
  if (hi === lo) return { min: lo, max: hi, buckets: [{ from: lo, to: hi, count: counts.get(1) ?? 0 }] };
  const from = Math.log(lo + 1);
  const step = (Math.log(hi + 1) - from) / PRICE_BUCKETS;
  const edge = (index: number) =>
    index === 0
      ? lo
      : index === PRICE_BUCKETS
        ? hi
        : Math.round((Math.exp(from + step * index) - 1) * 10_000) / 10_000;
  const buckets = Array.from({ length: PRICE_BUCKETS }, (_, index) => ({
    from: edge(index),
    to: edge(index + 1),
    count: counts.get(index + 1) ?? 0,
  }));
  return { min: lo, max: hi, buckets };
}

/**
 * One page of active products, the number of all matches (up to COUNT_CAP) and, when asked, the facet
 * counts. `countTotal` and `cacheFacets` let the caller cache those, the expensive part on a large
 * catalogue. With `after` the page is a keyset seek; a page number alone (a typed or shared `?page=7`)
 * falls back to an offset over ids only, then fetches the rows of that page.
 */
export async function listProducts(
  db: Database,
  query: ProductListQuery,
  countTotal: CountTotal = (_key, run) => run(),
  cacheFacets: CacheFacets = (_key, load) => load(),
  /** Above this many matches a search's first pages are ranked by tiers (`rankedCandidates`). */
  rankExactUpTo = 2_000,
  /** Above this many rows to scan, facet counts are estimated from a sample (`productFacets`). */
  facetsExactUpTo = Number.POSITIVE_INFINITY,
) {
  const terms = await searchTerms(db, query.search);
  const filters = filterConditions(query, terms);
  const where = whereAll(filters);
  const plan = sortPlans[query.sort];
  // Search results in relevance order: the score is computed per match, so there is no index to seek
  // in, and pages are read by offset (a search's matches are what its cost grows with, not the depth).
  const ranked = terms.length > 0 && (query.sort === "relevance" || query.sort === "default");
  const cursor = ranked || query.after === undefined ? null : decodeCursor(query.sort, query.after);
  const offset = cursor ? 0 : (query.page - 1) * query.pageSize;
  // One row more than the page tells whether there is a next page without another query.
  const take = query.pageSize + 1;
  // Ranked pages go by number: they hand on no cursor, so they read no key.
  const sortKey = ranked ? sql<string | null>`null` : plan.key;
  const select = () => db.select({ ...productColumns, sortKey }).from(products);

  /**
   * `take` rows of the stretches in turn, the first `skip` of them left out (a page number without a
   * cursor): those are skipped as ids only, so the page's columns are read for its own rows alone. A
   * stretch that ends before the page starts is counted to know how many of `skip` it held; only the
   * first stretch of the featured order (the chosen few) can be such a stretch before another.
   */
  const read = async (stretches: Stretch[], skip: number) => {
    const found: Awaited<ReturnType<typeof select>> = [];
    for (const [index, stretch] of stretches.entries()) {
      if (found.length >= take) break;
      const inStretch = and(where, stretch.where);
      const limit = take - found.length;
      const rows =
        skip === 0
          ? await select()
              .where(inStretch)
              .orderBy(...stretch.order)
              .limit(limit)
          : await select()
              .where(
                inArray(
                  products.id,
                  db
                    .select({ id: products.id })
                    .from(products)
                    .where(inStretch)
                    .orderBy(...stretch.order)
                    .limit(limit)
                    .offset(skip),
                ),
              )
              .orderBy(...stretch.order);
      found.push(...rows);
      if (skip > 0 && index < stretches.length - 1) {
        skip = rows.length > 0 ? 0 : Math.max(0, skip - (await countUpTo(db, inStretch, skip)));
      }
    }
    return found;
  };

  const key = filtersKey(query);
  let counted: Promise<number> | undefined;
  const total = () =>
    (counted ??= countTotal(key, async () => {
      // Counting to the cap reads matches until there are COUNT_CAP of them: 200,000 rows for a word
      // with filters held by 5 % of 1,000,000 products (65 ms). When PostgreSQL's own estimate is far
      // above the cap, the answer is "more than the cap" without reading them.
      if (terms.length > 0 && (await estimatedRows(db, where)) >= COUNT_CAP * ESTIMATE_MARGIN) {
        return COUNT_CAP + 1;
      }
      return countUpTo(db, where, COUNT_CAP);
    }));
  // A search with many matches: scoring them all is what costs (a word in 10 % of 1,000,000 products
  // is 100,000 scores and a sort), so its first pages are ranked among the candidates the tiers read.
  // The total, needed anyway, tells whether the search is that large.
  const candidates =
    ranked &&
    terms.length === 1 &&
    offset + take <= RANK_BY_TIERS_UP_TO_ROWS &&
    (await total()) > rankExactUpTo
      ? rankedCandidates(where, terms, offset + take)
      : null;
  // Scoring every match reads them all: the same statement counts them for the total, which otherwise
  // reads them a second time (45 ms of a two-word search held by 10,000 of 1,000,000 products).
  const scoredWithCount =
    ranked && !candidates && offset === 0
      ? db
          .select({ ...productColumns, sortKey, matches: sql<number>`(count(*) over ())::int` })
          .from(products)
          .where(where)
          .orderBy(...relevanceOrder(terms))
          .limit(take)
          .execute()
      : null;

  const pageRows = scoredWithCount
    ? scoredWithCount
    : candidates
      ? select()
          .where(sql`${products.id} in (${candidates})`)
          .orderBy(...relevanceOrder(terms))
          .limit(take)
          .offset(offset)
      : ranked
        ? read([{ order: relevanceOrder(terms) }], offset)
        : read(cursor ? plan.after(cursor.key, cursor.id) : plan.start, offset);

  const [rows, matches, facets] = await Promise.all([
    pageRows,
    scoredWithCount ? scoredWithCount.then((r) => countTotal(key, async () => r[0]?.matches ?? 0)) : total(),
    query.facets ? cacheFacets(key, () => productFacets(db, query, terms, facetsExactUpTo)) : null,
  ]);
  const page = rows.slice(0, query.pageSize);
  const last = page.at(-1);
  return {
    items: page.map(({ sortKey: _sortKey, ...row }) => toProductCard(row)),
    total: Math.min(matches, COUNT_CAP),
    totalCapped: matches > COUNT_CAP,
    page: query.page,
    pageSize: query.pageSize,
    nextCursor:
      rows.length > query.pageSize && last && !ranked
        ? encodeCursor({ sort: query.sort, key: last.sortKey, id: last.id })
        : null,
    facets,
    didYouMean: didYouMean(terms),
  };
}

export async function findActiveProduct(db: Database, id: string) {
  const [row] = await db
    .select(productColumns)
    .from(products)
    .where(and(eq(products.id, id), onSale()));
  return row ?? null;
}

/**
 * One product on sale with its features and specifications, in one statement (decision 0018): the lists
 * are JSON aggregates of correlated subqueries on their product_id indexes.
 */
export async function findProductDetail(db: Database, id: string): Promise<ProductDetail | null> {
  const [row] = await db
    .select({
      ...productColumns,
      // Spelled out: drizzle leaves columns unqualified when a select reads one table, and the
      // subqueries must name the outer product.
      features: sql<ProductDetail["features"]>`coalesce((
        select json_agg(json_build_object('id', f.id, 'feature', f.feature) order by f.position, f.id)
        from product_features f where f.product_id = products.id), '[]'::json)`,
      specifications: sql<ProductDetail["specifications"]>`coalesce((
        select json_agg(json_build_object('id', s.id, 'key', s.spec_key, 'value', s.spec_value)
          order by s.position, s.id)
        from product_specifications s where s.product_id = products.id), '[]'::json)`,
      plans: livePlansJson,
    })
    .from(products)
    .where(and(eq(products.id, id), onSale()));
  return row ? toProductDetail(row, row.features, row.specifications, row.plans) : null;
}

export function toProductDetail(
  row: ProductRow,
  features: ProductDetail["features"],
  specifications: ProductDetail["specifications"],
  plans: ProductDetail["plans"],
): ProductDetail {
  return {
    ...toProductCard(row),
    description: row.description,
    images: row.images,
    features,
    specifications,
    plans,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function listCategories(db: Database) {
  return db
    .select({ id: categories.id, name: categories.name, slug: categories.slug })
    .from(categories)
    .orderBy(desc(categories.createdAt), asc(categories.name));
}

export async function listFxRates(db: Database) {
  const rows = await db.select().from(fxRates).orderBy(asc(fxRates.currencyCode));
  return rows.map((r) => ({
    currencyCode: r.currencyCode,
    rateToUsd: Number(r.rateToUsd),
    fxBuffer: Number(r.fxBuffer),
  }));
}

export async function listContentBlocks(db: Database) {
  return db
    .select({ key: siteContentBlocks.key, content: siteContentBlocks.content })
    .from(siteContentBlocks)
    .orderBy(asc(siteContentBlocks.key));
}

/**
 * The marketplace in figures (`marketplaceStatsSchema`), one statement: products on sale, the distinct
 * vendors selling them, the countries of their sellers' storefronts and of buyers with a paid order, the
 * buyers with a paid order, and the published reviews of products on sale (count and star sum, whose
 * mean `summariseRatings` rounds as a product's rating).
 */
export async function countMarketplace(db: Database) {
  const [row] = await rowsOf<{
    products: number;
    vendors: number;
    countries: number;
    customers: number;
    reviews: number;
    stars: number;
  }>(
    db,
    sql`select
      (select count(*)::int from ${products} where ${onSale()}) as products,
      (select count(distinct lower(${products.vendor}))::int from ${products} where ${onSale()}) as vendors,
      (select count(*)::int from (
        select ${storefronts.country} as country from ${storefronts}
        where ${storefronts.country} is not null
          and exists (select 1 from ${products} where ${products.sellerId} = ${storefronts.userId} and ${onSale()})
        union
        select ${orders.buyerCountry} from ${orders} where ${orders.isPaid} and ${orders.buyerCountry} is not null
      ) served) as countries,
      (select count(distinct ${orders.userId})::int from ${orders} where ${orders.isPaid}) as customers,
      (select count(*)::int from ${reviews} join ${products} on ${products.id} = ${reviews.productId}
        where ${reviews.status} = 'published' and ${onSale()}) as reviews,
      (select coalesce(sum(${reviews.rating}), 0)::int from ${reviews} join ${products} on ${products.id} = ${reviews.productId}
        where ${reviews.status} = 'published' and ${onSale()}) as stars`,
  );
  const figures = row ?? { products: 0, vendors: 0, countries: 0, customers: 0, reviews: 0, stars: 0 };
  const { rating, reviewsCount } = summariseRatings(Number(figures.reviews), Number(figures.stars));
  return {
    products: Number(figures.products),
    vendors: Number(figures.vendors),
    countries: Number(figures.countries),
    customers: Number(figures.customers),
    rating,
    reviews: reviewsCount,
  };
}

/** Known words shorter than this are not offered: they are too easily "near" anything. */
const CORRECTION_MIN_LENGTH = 3;
/** Rows read in table order for a word before asking the trigram index whether any product holds it. */
const EXISTENCE_PREFIX_ROWS = 5_000;
/** Products whose words are weighed for corrections: enough to hold the word meant, bounded in cost. */
const CORRECTION_CANDIDATES = 200;
/** Known words most alike by trigrams that are weighed as corrections (those one edit away go first). */
const SIMILAR_WORDS = 20;
/** Products read for the words one edit from a word: each holds such a word. */
const ONE_EDIT_CANDIDATES = 200;

/**
 * Whether a product on sale holds the word as written. Two proofs, the second only if the first fails.
 * A common word is in the first rows on disk. Otherwise the trigram index decides, through a
 * materialised CTE so that PostgreSQL plans it for every row (a plain `exists` plans for the first match
 * and, for a rare or absent word, chose a sequential scan of the whole table: 250 ms at 1,000,000
 * products, against 2-4 ms this way).
 */
export async function productHoldsWord(db: Database, word: string): Promise<boolean> {
  const pattern = containsPattern(word);
  const [found] = await rowsOf<{ found: boolean }>(
    db,
    sql`select (
        exists (select 1 from (select ${products.searchText} as text from ${products} where ${onSale()} limit ${EXISTENCE_PREFIX_ROWS}) first_rows
          where text like ${pattern})
        or exists (with matching as materialized (select 1 from ${products} where ${onSale()} and ${products.searchText} like ${pattern})
          select 1 from matching)
      ) as found`,
  );
  return found?.found ?? false;
}

/**
 * The known words (of the names of products on sale sharing enough trigrams with the word, and of
 * category names) most alike the word by trigrams, with their similarity.
 */
export async function similarKnownWords(
  db: Database,
  word: string,
): Promise<{ text: string; similarity: number }[]> {
  const similar = await rowsOf<{ word: string; similarity: number }>(
    db,
    sql`
    with candidates as (
      select ${products.searchName} as text from ${products}
      where ${onSale()} and ${word} <% ${products.searchName}
      limit ${CORRECTION_CANDIDATES}
    ),
    known as (
      select regexp_split_to_table(text, '[^[:alnum:]]+') as known from candidates
      union
      select regexp_split_to_table(immutable_unaccent(lower(${categories.name})), '[^[:alnum:]]+') from ${categories}
    )
    select known as word, similarity(${word}, known) as similarity from known
    where length(known) >= ${CORRECTION_MIN_LENGTH} and ${word} <% known
    order by similarity(${word}, known) desc, known
    limit ${SIMILAR_WORDS}`,
  );
  return similar.map((r) => ({ text: r.word, similarity: Number(r.similarity) }));
}

/**
 * Known words of the given spellings (LIKE patterns of letters, digits and `_`, as `oneEditPatterns`
 * writes them), with their trigram similarity to `word`: from up to ONE_EDIT_CANDIDATES products on sale
 * holding a word of one of them. Each spelling is looked up through the trigram index: with `like` when
 * it keeps a run of three characters, else ("n_de", `indexableSpellings`) as the expression `n[a-z0-9]de`,
 * whose trigrams the index spells out. A second expression, on `' ' || search_name` so that it filters
 * the rows found rather than joining the index lookup (as an index condition it made an absent spelling
 * cost 15 ms instead of 3 at 30,000 products), keeps only products holding such a whole word (`\m`,
 * `\M`), so "node" for "ndoe" is not crowded out by "nodes" or "anode". One statement for every
 * spelling: one subquery each, with a limit each, spent most of its time planning (22 subqueries for a
 * 6-letter word, 200-300 ms on a busy machine). The lookups are a materialised CTE, planned for every
 * row (as the existence probe above), with sequential scans off for the statement: the OR of 20-odd
 * spellings is estimated to match much of the table, and a sequential scan for spellings no product
 * holds read all of it (1.5 s at 100,000 products). A common spelling ("data" for "dtaa") is read in
 * full, once a minute at most.
 */
export async function wordsSpelt(db: Database, word: string, patterns: string[]) {
  if (patterns.length === 0) return [];
  const lookup = (pattern: string) =>
    indexableSpellings(pattern)[0] === pattern
      ? sql`${products.searchName} like ${`%${pattern}%`}`
      : sql`${products.searchName} ~ ${pattern.replace("_", "[a-z0-9]")}`;
  const wholeWords = `\\m(${patterns.map((p) => p.replaceAll("_", "[[:alnum:]]")).join("|")})\\M`;
  const found = await db.transaction(async (tx) => {
    await tx.execute(sql`set local enable_seqscan = off`);
    return rowsOf<{ word: string; similarity: number }>(
      tx,
      sql`
      with matching as materialized (
        select ${products.searchName} as text from ${products}
        where ${onSale()} and (${sql.join(patterns.map(lookup), sql` or `)})
      ),
      candidates as (
        select text from matching where (' ' || text) ~ ${wholeWords} limit ${ONE_EDIT_CANDIDATES}
      ),
      known as (
        select regexp_split_to_table(text, '[^[:alnum:]]+') as known from candidates
        union
        select regexp_split_to_table(immutable_unaccent(lower(${categories.name})), '[^[:alnum:]]+') from ${categories}
      )
      select known as word, similarity(${word}, known) as similarity from known
      where length(known) >= ${CORRECTION_MIN_LENGTH} and (${sql.join(
        patterns.map((pattern) => sql`known like ${pattern}`),
        sql` or `,
      )})`,
    );
  });
  return found.map((r) => ({ text: r.word, similarity: Number(r.similarity) }));
}

/**
 * Every word must match: each of its alternatives is a substring of name, vendor or description
 * (`search_text`, GIN trigram index). Misspelt words were already replaced by known ones, so no
 * similarity is computed per product: a typo costs what the word meant costs.
 */
export function searchCondition(terms: SearchTerm[]): SQL | undefined {
  return and(
    ...terms.map(
      (term) =>
        sql`(${sql.join(
          term.alternatives.map(({ text }) => sql`${products.searchText} like ${containsPattern(text)}`),
          sql` or `,
        )})`,
    ),
  );
}

/**
 * Type-ahead's condition: every word, or one of its alternatives (a correction, a synonym), begins a word
 * of the product's name or vendor. A suggestion is a name under the search box: one that holds the text
 * only in its description ("includes" for "clud", a mention of the cloud in a data-cleaning service's)
 * reads as a wrong answer. The plain `like` lets the trigram index find the rows; the second keeps
 * those where the text starts a word.
 */
export function nameWordCondition(terms: SearchTerm[]): SQL | undefined {
  const name = products.searchName;
  return and(
    ...terms.map(
      (term) =>
        sql`(${sql.join(
          term.alternatives.map(
            ({ text }) =>
              sql`(${name} like ${containsPattern(text)} and ' ' || ${name} like ${`% ${escapeLike(text)}%`})`,
          ),
          sql` or `,
        )})`,
    ),
  );
}

/**
 * How well one alternative matches a product: 80 when the name starts with it, 60 when a word of the
 * name or vendor does, 40 anywhere in them, 25 in the description; times its weight, so a corrected
 * word (weight = similarity, below 1) ranks below words as written and nearer corrections first.
 * With several alternatives, one that does not match the product scores 0.
 */
function alternativeScore({ text, weight }: SearchTerm["alternatives"][number], several: boolean): SQL {
  const name = products.searchName;
  const score = sql`case
    when ${name} like ${`${escapeLike(text)}%`} then 80
    when ' ' || ${name} like ${`% ${escapeLike(text)}%`} then 60
    when ${name} like ${containsPattern(text)} then 40
    ${several ? sql`when ${products.searchText} like ${containsPattern(text)} then 25 else 0` : sql`else 25`}
  end`;
  return weight === 1 ? score : sql`(${weight}::float8 * ${score})`;
}

/** The relevance score: each word's best alternative, summed, plus a bonus when the name is the query. */
export function relevanceScore(terms: SearchTerm[]): SQL {
  const phrase = terms.map((t) => t.word).join(" ");
  const perTerm = terms.map((term) =>
    term.alternatives.length === 1
      ? alternativeScore(term.alternatives[0]!, false)
      : sql`greatest(${sql.join(
          term.alternatives.map((alternative) => alternativeScore(alternative, true)),
          sql`, `,
        )})`,
  );
  return sql`(${sql.join(perTerm, sql` + `)} + case when lower(${products.name}) = ${phrase} then 100 else 0 end)`;
}

/** How products of equal relevance are ordered: the better rated, then the newer, then by id. */
const tieOrder = (): SQL[] => [
  sql`${products.ratingScore} desc nulls last`,
  sql`${products.createdAt} desc`,
  sql`${products.id} desc`,
];

/** Most relevant first; among equals, the better rated and then the newer, with the id as tie-breaker. */
export function relevanceOrder(terms: SearchTerm[]): SQL[] {
  return [sql`${relevanceScore(terms)} desc`, ...tieOrder()];
}

/**
 * The ids among which the first `rows` products of a one-word search in relevance order are, found
 * without scoring every match: in each tier, the first `rows` matches in tie order. The tiers are every
 * match, names equal to the word and, per alternative of the word, names starting with it, names with a
 * word starting with it, names holding it and (for a word with several) products holding it. Each tier
 * is the set of matches scoring at least some value, so every product of the true first `rows` is among
 * the first `rows` of the tier of its own score: ranking the union with `relevanceOrder` is exact. Each
 * tier is read off the rating index in tie order and stops after `rows`, so a word held by 10 % of the
 * catalogue costs a few hundred rows, not 100,000 scores and a sort.
 * Null for several words: their scores add up, the sets "scoring at least" are combinations of every
 * word's tiers, and ANDs of correlated conditions mislead the planner (measured: 290 ms instead of 50).
 */
export function rankedCandidates(where: SQL | undefined, terms: SearchTerm[], rows: number): SQL | null {
  const [term] = terms;
  if (!term || terms.length > 1) return null;
  const name = products.searchName;
  const tiers: (SQL | undefined)[] = [undefined, sql`lower(${products.name}) = ${term.word}`];
  for (const { text } of term.alternatives) {
    const starts = sql`${name} like ${`${escapeLike(text)}%`}`;
    // On the column itself (not on ' ' || name, as the score) so that its statistics estimate the tier.
    tiers.push(starts, sql`(${starts} or ${name} like ${`% ${escapeLike(text)}%`})`);
    tiers.push(sql`${name} like ${containsPattern(text)}`);
    if (term.alternatives.length > 1) tiers.push(sql`${products.searchText} like ${containsPattern(text)}`);
  }
  return sql.join(
    tiers.map(
      (tier) =>
        sql`(select ${products.id} from ${products} where ${and(where, tier)} order by ${sql.join(tieOrder(), sql`, `)} limit ${rows})`,
    ),
    sql` union `,
  );
}
