import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { buildApp } from "#server/app";
import { openDatabase } from "#server/db/client";
import { seedSyntheticProducts } from "#server/db/seed/synthetic";
import { loadEnv } from "#server/env";
import { ensureWebBuild, webRoot } from "#server/web/build";
import { load } from "./http";

/**
 * `npm run bench`: prints figures, asserts nothing. BENCH_PRODUCTS (default 20000) synthetic products
 * are seeded into in-memory PGlite, or into DATABASE_URL when set (use a scratch database).
 */
const productCount = Number(process.env.BENCH_PRODUCTS ?? 20_000);
const seconds = Number(process.env.BENCH_SECONDS ?? 5);

async function homeJsGzip() {
  await ensureWebBuild(() => {});
  const html = await readFile(path.join(webRoot, "index.html"), "utf8");
  const entry = [...html.matchAll(/(?:src|href)="\/assets\/([^"]+\.js)"/g)].map((m) => m[1] ?? "");
  const home = (await readdir(path.join(webRoot, "assets"))).filter((f) => /^home-.*\.js$/.test(f));
  let total = 0;
  for (const file of [...new Set([...entry, ...home])]) {
    total += gzipSync(await readFile(path.join(webRoot, "assets", file)), { level: 9 }).length;
  }
  return { files: entry.length + home.length, kb: Number((total / 1024).toFixed(1)) };
}

const dataDir = await mkdtemp(path.join(os.tmpdir(), "stackbay-bench-"));
const env = loadEnv({ ...process.env, NODE_ENV: "test", DATA_DIR: dataDir, LOG_LEVEL: "silent", PORT: "0" });
const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: null });
await database.migrate();

const seedStarted = performance.now();
await seedSyntheticProducts(database.db, productCount);
const seedSeconds = (performance.now() - seedStarted) / 1000;

const app = await buildApp({ env, database, webRoot: null });
const base = await app.listen({ port: 0, host: "127.0.0.1" });
const health = await load(`${base}/api/health`, { concurrency: 50, seconds });
await app.close();
await rm(dataDir, { recursive: true, force: true });

const js = await homeJsGzip();
console.info(`Stackbay benchmark (${database.kind}, ${os.cpus().length} cores)`);
console.table({
  [`seed ${productCount} products`]: {
    value: `${seedSeconds.toFixed(2)} s`,
    rate: `${Math.round(productCount / seedSeconds)}/s`,
  },
  "GET /api/health, 50 connections": {
    value: `p50 ${health.p50} ms, p99 ${health.p99} ms`,
    rate: `${health.rps} req/s (${health.requests} requests, ${health.errors} errors)`,
  },
  "home route JS (gzip)": { value: `${js.kb} KB`, rate: `${js.files} files` },
});
