import { randomBytes } from "node:crypto";
import { mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { and, sql } from "drizzle-orm";
import { COUNT_CAP } from "#domain/catalog";
import { encodeCursor } from "#domain/product-cursor";
import { buildApp } from "#server/app";
import { openDatabase } from "#server/db/client";
import { onSale } from "#server/db/products";
import { products } from "#server/db/schema/catalog";
import { seedSyntheticProducts } from "#server/db/seed/synthetic";
import { loadEnv } from "#server/env";
import { relevanceOrder, searchCondition } from "#server/modules/catalog/repository";
import { type SearchTerm, searchTerms } from "#server/modules/catalog/search";

/**
 * The server side of `npm run bench`, in its own process so the load generator does not share its event
 * loop: seeds BENCH_PRODUCTS products (PGlite in memory, or DATABASE_URL), listens, prints one JSON line.
 */
const productCount = Number(process.env.BENCH_PRODUCTS ?? 100_000);
const dataDir = await mkdtemp(path.join(os.tmpdir(), "stackbay-bench-"));
const env = loadEnv({
  // Production's overload guard (tests turn it off by default): the overload scenario measures it.
  OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: "250",
  ...process.env,
  NODE_ENV: "test",
  DATA_DIR: dataDir,
  LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "silent",
  PORT: "0",
  AUTH_SECRET: randomBytes(32).toString("base64url"),
});
const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: null });
await database.migrate();
const started = performance.now();
await seedSyntheticProducts(database.db, productCount);
await database.db.execute(sql`analyze products`);
const seedSeconds = (performance.now() - started) / 1000;

/** A bound parameter written into the statement, for EXPLAIN (which takes no parameters). */
const literal = (value: unknown) =>
  typeof value === "number" ? String(value) : `'${String(value).replaceAll("'", "''")}'`;
const explain = async (query: ReturnType<typeof sql>) =>
  (
    (await database.db.execute(sql`explain ${query}`)) as unknown as { rows: Record<string, string>[] }
  ).rows.map((row) => String(Object.values(row)[0]));
// The cursor of page 1,000 (24 a page), so the bench can ask for that page as the "Next" link would.
const [deep] = (
  (await database.db.execute(
    sql`select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as key, id from products
        where is_active and moderation_status = 'approved' order by created_at desc, id desc offset ${999 * 24 - 1} limit 1`,
  )) as unknown as { rows: { key: string; id: string }[] }
).rows;
const deepCursor = deep ? encodeCursor({ sort: "default", key: deep.key, id: deep.id }) : null;

// The plans of the queries the app runs, built by the same functions (so they cannot drift from it).
const rareTerms = await searchTerms(database.db, "quantum vault");
const commonTerms = await searchTerms(database.db, "cloud");
const onSaleMatching = (terms: SearchTerm[]) => and(onSale(), searchCondition(terms));
const explainQuery = (query: { toSQL(): { sql: string; params: unknown[] } }) => {
  const { sql: text, params } = query.toSQL();
  return explain(sql.raw(text.replace(/\$(\d+)/g, (_, n) => literal(params[Number(n) - 1]))));
};
const plans = {
  "page of search 'quantum vault' (relevance)": await explainQuery(
    database.db
      .select({ id: products.id })
      .from(products)
      .where(onSaleMatching(rareTerms))
      .orderBy(...relevanceOrder(rareTerms))
      .limit(25),
  ),
  "capped count of search 'cloud'": await explainQuery(
    database.db
      .select({ one: sql`1` })
      .from(products)
      .where(onSaleMatching(commonTerms))
      .limit(COUNT_CAP + 1),
  ),
  "deep page by cursor": await explain(
    sql`select id from products where is_active and moderation_status = 'approved'
        and (created_at, id) < (${deep?.key ?? "2000-01-01T00:00:00.000000Z"}::timestamptz, ${deep?.id ?? "00000000-0000-4000-8000-000000000000"}::uuid)
        order by created_at desc, id desc limit 25`,
  ),
};

const app = await buildApp({ env, database, webRoot: null });
const address = await app.listen({ port: 0, host: "127.0.0.1" });
// An existing product for the "product by id" scenario.
const [sample] = (
  (await database.db.execute(
    sql`select id from products where is_active and moderation_status = 'approved' order by id limit 1`,
  )) as unknown as { rows: { id: string }[] }
).rows;
console.info(
  JSON.stringify({
    address,
    kind: database.kind,
    productCount,
    seedSeconds,
    plans,
    productId: sample?.id,
    deepCursor,
  }),
);
process.once("SIGTERM", async () => {
  await app.close();
  process.exit(0);
});
