import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { gzipSync } from "node:zlib";
import { ensureWebBuild, webRoot } from "#server/web/build";
import { load } from "./http";

/**
 * `npm run bench`: prints figures, asserts nothing. The server runs in a child process (bench/serve.ts)
 * with BENCH_PRODUCTS synthetic products; this process generates the load. Set DATABASE_URL to a scratch
 * PostgreSQL database to measure PostgreSQL instead of PGlite.
 */
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 50);

const scenarios: [string, string][] = [
  ["health (database round trip)", "/api/health"],
  ["listing, no filter", "/api/products"],
  ["search 'cloud'", "/api/products?search=cloud"],
  ["search 'quantum vault' (rare)", "/api/products?search=quantum%20vault"],
  ["search 'qantum' (typo)", "/api/products?search=qantum"],
  ["search 'qantum gatway' (two typos)", "/api/products?search=qantum%20gatway"],
  ["suggestions 'gatew'", "/api/search/suggestions?q=gatew"],
  ["suggestions 'qantum' (typo)", "/api/search/suggestions?q=qantum"],
  ["category + discount + price-low", "/api/products?category=hardware&discount=true&sort=price-low"],
  ["rating sort", "/api/products?sort=rating"],
  ["deep page (page 1000)", "/api/products?page=1000"],
];

type Manifest = Record<string, { file: string; imports?: string[]; isEntry?: boolean }>;

/** gzip size of the JS a route needs before it can render: the entry, the route module and their static imports. */
async function routeJsGzip(routeModule: string) {
  const manifest = JSON.parse(await readFile(path.join(webRoot, ".vite/manifest.json"), "utf8")) as Manifest;
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) visit(key);
  visit(routeModule);
  let total = 0;
  for (const file of files) total += gzipSync(await readFile(path.join(webRoot, file)), { level: 9 }).length;
  return `${(total / 1024).toFixed(1)} KB in ${files.size} files`;
}

await ensureWebBuild(() => {});
const child = spawn(process.execPath, ["--import", "tsx", path.join(import.meta.dirname, "serve.ts")], {
  stdio: ["ignore", "pipe", "inherit"],
  env: process.env,
});
const [line] = await createInterface({ input: child.stdout! })
  [Symbol.asyncIterator]()
  .next()
  .then((r) => [r.value as string]);
const server = JSON.parse(line ?? "{}") as {
  address: string;
  kind: string;
  productCount: number;
  seedSeconds: number;
  plans: Record<string, string[]>;
};

const rows: Record<string, Record<string, string | number>> = {};
try {
  for (const [name, url] of scenarios) {
    const single = await load(`${server.address}${url}`, {
      concurrency: 1,
      seconds: Math.max(1, seconds / 2),
    });
    const loaded = await load(`${server.address}${url}`, { concurrency, seconds });
    rows[name] = {
      "1 conn p50 ms": single.p50,
      "1 conn p99 ms": single.p99,
      [`${concurrency} conn p50 ms`]: loaded.p50,
      [`${concurrency} conn p99 ms`]: loaded.p99,
      "req/s": loaded.rps,
      errors: single.errors + loaded.errors,
    };
  }
} finally {
  child.kill("SIGTERM");
}

console.info(
  `Stackbay benchmark: ${server.kind}, ${server.productCount} products (seeded in ${server.seedSeconds.toFixed(1)} s), ` +
    `${seconds} s per scenario, server and load generator share ${os.cpus().length} cores`,
);
console.table(rows);
for (const [name, plan] of Object.entries(server.plans)) {
  console.info(`Plan, ${name}:\n${plan.map((l) => `  ${l}`).join("\n")}`);
}
console.info(`JS loaded by the home route (gzip): ${await routeJsGzip("src/web/app/routes/home.tsx")}`);
console.info(
  `JS loaded by the products route (gzip): ${await routeJsGzip("src/web/app/routes/products.tsx")}`,
);
