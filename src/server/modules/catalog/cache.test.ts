import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import type { ProductDetail, ProductList } from "#domain/catalog-schemas";
import { type App, buildApp } from "#server/app";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import { readCatalogueVersion } from "#server/lib/catalogue-cache";
import { createTestApp } from "#server/test/app";
import { type createClient, createVerifiedAccount, signedInClient } from "#server/test/client";

let t: Awaited<ReturnType<typeof createTestApp>>;
/** A second server instance on the same database, as behind a load balancer. */
let other: App;
let admin: ReturnType<typeof createClient>;
let productId: string;

const input = (price: number) => ({
  name: "Cachable Ledger",
  vendor: "Quasar Labs",
  description: "Double-entry bookkeeping for small teams.",
  category: "software",
  price,
  features: ["Bank feeds"],
  specifications: [{ key: "Platform", value: "Web" }],
  images: [],
  imageUrl: null,
  isResellable: false,
});

beforeAll(async () => {
  t = await createTestApp({ seed: true });
  // Same database handle; its own cache, listener and job queue. Closing it must not close the database.
  other = await buildApp({
    env: t.app.env,
    database: { ...t.app.database, close: async () => {} },
    webRoot: null,
    schedules: false,
    workers: false,
  });
  await other.ready();
  admin = await signedInClient(t.app, "admin@stackbay.test", DEMO_PASSWORD);
  const res = await admin.post("/api/manage/products", input(10));
  expect(res.statusCode, res.body).toBe(201);
  productId = (res.json() as { product: { id: string } }).product.id;
});
afterAll(async () => {
  await other.close();
  await t.close();
});

const get = (app: App, url: string, headers: Record<string, string> = {}) =>
  app.inject({ method: "GET", url, headers });

async function priceOn(app: App) {
  const res = await get(app, `/api/products/${productId}`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as ProductDetail).price;
}

/**
 * On PostgreSQL another instance hears of a change a moment after the commit (its LISTEN connection);
 * this waits for that notification, not for any timer. On PGlite it has already arrived.
 */
async function notified(app: App, clearsBefore: number) {
  await vi.waitFor(() => expect(app.catalogueCache.stats.clears).toBeGreaterThan(clearsBefore), {
    timeout: 5_000,
    interval: 5,
  });
}

describe("catalogue cache", () => {
  test("a price edit is visible on the very next request, on the instance that wrote it and on another", async () => {
    expect(await priceOn(t.app)).toBe(10);
    expect(await priceOn(other)).toBe(10);
    // Both now answer from memory. On PostgreSQL the notification of the set-up's own write may arrive
    // only now and clear the cache once more: a repeated read is then a hit the next time.
    await vi.waitFor(async () => {
      const hits = t.app.catalogueCache.stats.hits;
      expect(await priceOn(t.app)).toBe(10);
      expect(t.app.catalogueCache.stats.hits).toBe(hits + 1);
    });

    const otherClears = other.catalogueCache.stats.clears;
    const res = await admin.patch(`/api/manage/products/${productId}`, input(12.5));
    expect(res.statusCode, res.body).toBe(200);
    expect(await priceOn(t.app)).toBe(12.5);
    await notified(other, otherClears);
    expect(await priceOn(other)).toBe(12.5);
  });

  test("a write that changes no catalogue table (saving a product) keeps the cache; one that does clears it before answering, without waiting for the notification", async () => {
    // An instance that never hears notifications: only its own check after a write can clear it.
    const deaf = await buildApp({
      env: t.app.env,
      database: { ...t.app.database, listen: async () => async () => {}, close: async () => {} },
      webRoot: null,
      schedules: false,
      workers: false,
    });
    try {
      await deaf.ready();
      const admin = await signedInClient(deaf, "admin@stackbay.test", DEMO_PASSWORD);
      const price = await priceOn(deaf);
      const clears = deaf.catalogueCache.stats.clears;
      expect((await admin.request("PUT", `/api/saved/${productId}`)).statusCode).toBe(200);
      expect((await admin.request("DELETE", `/api/saved/${productId}`)).statusCode).toBe(200);
      const hits = deaf.catalogueCache.stats.hits;
      expect(await priceOn(deaf)).toBe(price);
      expect(deaf.catalogueCache.stats.hits).toBe(hits + 1);
      expect(deaf.catalogueCache.stats.clears).toBe(clears);

      expect((await admin.patch(`/api/manage/products/${productId}`, input(price + 1))).statusCode).toBe(200);
      expect(await priceOn(deaf)).toBe(price + 1);
      expect((await admin.patch(`/api/manage/products/${productId}`, input(price))).statusCode).toBe(200);
    } finally {
      await deaf.close();
    }
  });

  test("answers carry a strong ETag; a matching If-None-Match is a 304 without a body, until the product changes", async () => {
    const url = `/api/products/${productId}`;
    const first = await get(t.app, url);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers["cache-control"]).toBe("public, no-cache");
    expect(first.headers["content-type"]).toMatch(/^application\/json/);

    const again = await get(t.app, url, { "if-none-match": etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe("");
    expect(again.headers.etag).toBe(etag);
    expect((await get(t.app, url, { "if-none-match": `"other", W/${etag}` })).statusCode).toBe(304);
    expect((await get(t.app, url, { "if-none-match": '"other"' })).statusCode).toBe(200);
    // The same answer has the same ETag on every instance, so a load balancer may switch between them.
    expect((await get(other, url)).headers.etag).toBe(etag);

    const list = await get(t.app, "/api/products?search=cachable");
    expect(list.headers.etag).toMatch(/^"[\w-]+"$/);
    expect(
      (await get(t.app, "/api/products?search=cachable", { "if-none-match": list.headers.etag as string }))
        .statusCode,
    ).toBe(304);

    await admin.patch(url.replace("/api/", "/api/manage/"), input(13));
    const changed = await get(t.app, url, { "if-none-match": etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect((changed.json() as ProductDetail).price).toBe(13);
  });

  test("gzip is made once per answer and sent to clients that accept it", async () => {
    const url = "/api/products?pageSize=48";
    const plain = await get(t.app, url);
    const zipped = await get(t.app, url, { "accept-encoding": "gzip" });
    expect(zipped.headers["content-encoding"]).toBe("gzip");
    expect(zipped.headers.vary).toMatch(/accept-encoding/i);
    expect(zipped.headers.etag).toBe(plain.headers.etag);
    expect(zipped.rawPayload.length).toBeLessThan(plain.rawPayload.length);
  });

  test("concurrent misses on one listing run one load (and one count), not one each", async () => {
    t.app.catalogueCache.clear();
    const loads = t.app.catalogueCache.stats.loads;
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => get(t.app, "/api/products?search=cloud&sort=price-low")),
    );
    for (const res of answers) expect(res.statusCode).toBe(200);
    expect(new Set(answers.map((res) => res.body)).size).toBe(1);
    expect((JSON.parse(answers[0]?.body ?? "{}") as ProductList).total).toBeGreaterThan(0);
    // The page and its total: two entries, each loaded once.
    expect(t.app.catalogueCache.stats.loads).toBe(loads + 2);
  });

  // Every table a public catalogue answer reads; each write to one of them, from any code path (here
  // plain SQL outside the app), empties the cache of every instance. Writes to a product and its rows
  // count when the product is on sale (migration 0026): these touch the admin's public product.
  const productTables = {
    products: "update products set updated_at = updated_at where id = $id",
    product_features: "update product_features set position = position where product_id = $id",
    product_specifications: "update product_specifications set position = position where product_id = $id",
  };
  const catalogueTables = [
    ...Object.keys(productTables),
    "categories",
    "storefronts",
    "fx_rates",
    "site_content_blocks",
    "featured_products",
  ];
  test.each(catalogueTables)("a write to %s, by any code path, clears every instance", async (table) => {
    for (const app of [t.app, other]) {
      await get(app, "/api/categories");
      await get(app, "/api/fx-rates");
      expect(app.catalogueCache.size.entries).toBeGreaterThan(0);
    }
    const clears = [t.app.catalogueCache.stats.clears, other.catalogueCache.stats.clears] as const;
    const productWrite = productTables[table as keyof typeof productTables];
    await t.db.execute(
      sql.raw(
        productWrite ? productWrite.replace("$id", `'${productId}'`) : `delete from ${table} where false`,
      ),
    );
    await notified(t.app, clears[0]);
    await notified(other, clears[1]);
    expect(t.app.catalogueCache.size.entries).toBe(0);
    expect(other.catalogueCache.size.entries).toBe(0);
  });

  test.runIf(process.env.DATABASE_URL)(
    "an instance whose LISTEN connection is lost keeps nothing until it listens again, then hears changes",
    async () => {
      const listeners = async () =>
        (
          (await t.db.execute(
            sql`select pid from pg_stat_activity where datname = current_database() and query like 'listen %'`,
          )) as unknown as { rows: { pid: number }[] }
        ).rows;
      const before = await listeners();
      expect(before.length).toBe(2);
      await get(other, "/api/categories");
      await t.db.execute(sql`select pg_terminate_backend(pid) from pg_stat_activity
        where datname = current_database() and query like 'listen %'`);
      // Both instances lose theirs; until they are back, every read goes to the database.
      await vi.waitFor(async () => {
        await get(other, "/api/categories");
        expect(other.catalogueCache.size.entries).toBe(0);
      });
      await vi.waitFor(async () => expect((await listeners()).length).toBe(2), { timeout: 10_000 });
      await vi.waitFor(async () => {
        await get(other, "/api/categories");
        expect(other.catalogueCache.size.entries).toBe(1);
      });
      const clears = other.catalogueCache.stats.clears;
      await t.db.execute(sql`delete from categories where false`);
      await notified(other, clears);
      expect(other.catalogueCache.size.entries).toBe(0);
    },
  );

  test("a write to other tables, or one rolled back, keeps the cache", async () => {
    await get(other, "/api/categories");
    const clears = other.catalogueCache.stats.clears;
    await t.db.execute(sql`delete from newsletter_subscriptions where false`);
    await t.db
      .transaction(async (tx) => {
        await tx.execute(sql`delete from products where false`);
        tx.rollback();
      })
      .catch(() => undefined);
    // A catalogue write afterwards is a marker: once it has arrived, the earlier ones would have too.
    await t.db.execute(sql`delete from categories where false`);
    await notified(other, clears);
    expect(other.catalogueCache.stats.clears).toBe(clears + 1);
  });
});

describe("writes nobody can see", () => {
  test("a seller saving a listing under review in a loop keeps every instance's cache; its approval clears it", async () => {
    const made = await createVerifiedAccount(t.app, t.dataDir, {
      email: "flood@pending-seller.example",
      accountType: "seller",
    });
    const seller = await signedInClient(t.app, made.email, made.password);
    const created = await seller.post("/api/manage/products", input(20));
    expect(created.statusCode, created.body).toBe(201);
    const pending = (created.json() as { product: { id: string; moderationStatus: string } }).product;
    expect(pending.moderationStatus).toBe("pending");

    await priceOn(t.app);
    await get(other, "/api/categories");
    const clears = t.app.catalogueCache.stats.clears;
    const otherClears = other.catalogueCache.stats.clears;
    const version = await readCatalogueVersion(t.db);
    for (const price of [21, 22, 23, 24, 25]) {
      const res = await seller.patch(`/api/manage/products/${pending.id}`, input(price));
      expect(res.statusCode, res.body).toBe(200);
    }
    // Nor does saving the storefront's details, which no cached answer reads.
    const details = {
      name: "Test Person",
      description: "Ledgers.",
      website: null,
      country: null,
      logoUrl: null,
    };
    expect((await seller.request("PUT", "/api/seller/storefront", details)).statusCode).toBe(200);
    expect((await seller.request("DELETE", `/api/manage/products/${pending.id}`)).statusCode).toBe(200);
    expect((await seller.post(`/api/manage/products/${pending.id}/restore`)).statusCode).toBe(200);
    expect(await readCatalogueVersion(t.db)).toBe(version);
    expect(t.app.catalogueCache.stats.clears).toBe(clears);
    const hits = t.app.catalogueCache.stats.hits;
    await priceOn(t.app);
    expect(t.app.catalogueCache.stats.hits).toBe(hits + 1);
    // A catalogue write afterwards is a marker: once it has arrived, the seller's would have too.
    await t.db.execute(sql`delete from categories where false`);
    await notified(other, otherClears);
    expect(other.catalogueCache.stats.clears).toBe(otherClears + 1);

    // Approved, the listing is public: that clears the cache, and so does the next edit of it.
    const approved = await admin.post(`/api/admin/moderation/${pending.id}/approve`);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(t.app.catalogueCache.stats.clears).toBeGreaterThan(clears);
    expect((await get(t.app, `/api/products/${pending.id}`)).statusCode).toBe(200);
    const before = t.app.catalogueCache.stats.clears;
    expect((await seller.patch(`/api/manage/products/${pending.id}`, input(26))).statusCode).toBe(200);
    expect(t.app.catalogueCache.stats.clears).toBeGreaterThan(before);
  });
});

describe("overload", () => {
  test("a saturated event loop gets fast 503s with Retry-After, and normal answers once it recovers", async () => {
    const busy = await createTestApp({
      env: { OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: "50", OVERLOAD_RETRY_AFTER_SECONDS: "7" },
    });
    try {
      const recovered = () =>
        vi.waitFor(async () => expect((await get(busy.app, "/api/categories")).statusCode).toBe(200), {
          timeout: 5_000,
          interval: 50,
        });
      // Building the app (PGlite loading its snapshot) held the event loop too.
      await recovered();
      let refused: Awaited<ReturnType<typeof get>> | undefined;
      let live: Awaited<ReturnType<typeof get>> | undefined;
      for (let attempt = 0; attempt < 30 && !refused; attempt++) {
        const until = performance.now() + 200;
        while (performance.now() < until) {
          // Blocks the event loop on purpose, as a saturated server would.
        }
        await new Promise((resolve) => setTimeout(resolve, 1));
        const res = await get(busy.app, "/api/categories");
        if (res.statusCode === 503) {
          refused = res;
          // Still alive, however busy: liveness is never shed.
          live = await get(busy.app, "/api/health/live");
        }
      }
      expect(live?.statusCode).toBe(200);
      expect(refused?.headers["retry-after"]).toBe("7");
      expect(refused?.json()).toEqual({
        code: "SERVICE_BUSY",
        message: "The site is very busy right now. Please try again in a few seconds.",
        details: { retryAfterSeconds: 7 },
      });
      await recovered();
    } finally {
      await busy.close();
    }
  });

  test("too many requests waiting for a database connection get 503 at once", async () => {
    const database = other.database;
    const waiting = database.waitingForConnection;
    database.waitingForConnection = () => 26;
    try {
      const res = await get(other, "/api/categories");
      expect(res.statusCode).toBe(503);
      expect(res.headers["retry-after"]).toBe("2");
      expect(res.json()).toMatchObject({ code: "SERVICE_BUSY" });
    } finally {
      database.waitingForConnection = waiting;
    }
    expect((await get(other, "/api/categories")).statusCode).toBe(200);
  });
});
