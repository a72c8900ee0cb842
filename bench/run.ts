import { spawn } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { ensureWebBuild } from "#server/web/build";
import { coldStart } from "./cold-start";
import { load } from "./http";
import { journeyPages } from "./journey-pages";
import { runLighthouse } from "./lighthouse";
import { meteringBench } from "./metering";
import { pageCpuScenarios } from "./pages";
import { renewalsBench } from "./renewals";
import { printRouteJs } from "./route-js";

/**
 * `npm run bench`: prints figures, asserts nothing. The server runs in a child process (bench/serve.ts)
 * with BENCH_PRODUCTS synthetic products; this process generates the load. Set DATABASE_URL to a scratch
 * PostgreSQL database to measure PostgreSQL instead of PGlite.
 */
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 50);
/** Connections of the page scenarios: each fresh page render takes tens of ms of the server's CPU. */
const pageConcurrency = Number(process.env.BENCH_PAGE_CONCURRENCY ?? 10);

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
  [
    "facets (search, discount, price, rating)",
    "/api/products?facets=true&search=cloud&discount=true&minPrice=5&maxPrice=2000&minRating=3",
  ],
];

// Usage ingestion and license checks (bench/metering.ts): PostgreSQL only, on request.
if (process.env.BENCH_ONLY === "metering") {
  await meteringBench();
  process.exit();
}
// The renewal run at scale: PostgreSQL only and minutes long, so only on request (bench/renewals.ts).
if (process.env.BENCH_ONLY === "renewals") {
  await renewalsBench();
  process.exit();
}
await ensureWebBuild(() => {});
// What a browser journey's page costs (bench/journey-pages.ts): on request, as it needs a quiet machine.
if (process.env.BENCH_ONLY === "journey-pages") {
  await journeyPages();
  process.exit(0);
}
const printPageCpu = async () => {
  const pageRows = await pageCpuScenarios(seconds, pageConcurrency);
  console.info(
    `Public-page CPU per request (server process CPU / pages answered, ${pageConcurrency} connections, ${seconds} s each; goal: floods within 2× of warm)`,
  );
  console.table(pageRows);
};
if (process.env.BENCH_ONLY === "pages") {
  await printPageCpu();
  process.exit(0);
}
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
  productId: string;
  deepCursor: string | null;
};
scenarios.push(["product by id", `/api/products/${server.productId}`]);
// The deep page as the "Next" link asks for it: page 1,000 by its keyset cursor, not by offset.
if (server.deepCursor) {
  scenarios.push(["deep page by cursor (page 1000)", `/api/products?page=1000&after=${server.deepCursor}`]);
}

const rows: Record<string, Record<string, string | number>> = {};
let overload: Awaited<ReturnType<typeof load>> | undefined;
let overloadLabel = "";
try {
  for (const [name, url] of scenarios) {
    // The first request of a scenario finds nothing cached for its answer (its total or facets may be
    // shared with an earlier scenario's): what a visitor waits for after a catalogue change.
    const started = performance.now();
    const first = await fetch(`${server.address}${url}`);
    await first.arrayBuffer();
    const firstMs = Math.round((performance.now() - started) * 100) / 100;
    const single = await load(`${server.address}${url}`, {
      concurrency: 1,
      seconds: Math.max(1, seconds / 2),
    });
    const loaded = await load(`${server.address}${url}`, { concurrency, seconds });
    rows[name] = {
      "first (uncached) ms": first.ok ? firstMs : `HTTP ${first.status}`,
      "1 conn p50 ms": single.p50,
      "1 conn p99 ms": single.p99,
      [`${concurrency} conn p50 ms`]: loaded.p50,
      [`${concurrency} conn p99 ms`]: loaded.p99,
      "req/s": loaded.rps,
      "503 (busy)": single.busy + loaded.busy,
      "timeouts (10 s)": single.timeouts + loaded.timeouts,
      errors: single.errors + loaded.errors,
    };
  }
  // Overload: 200 connections on a common word, spread over its pages and sorts so most requests miss the
  // cache and reach the database. Graceful means fast 503s with Retry-After, never a 10 s wait.
  const overloadSeconds = process.env.BENCH_OVERLOAD === "1" ? 120 : Math.max(5, seconds * 2);
  const sorts = ["newest", "price-low", "price-high", "rating"];
  overload = await load(
    (n) =>
      `${server.address}/api/products?search=cloud&sort=${sorts[n % 4]}&page=${1 + (Math.floor(n / 4) % 400)}`,
    { concurrency: 200, seconds: overloadSeconds, timeoutMs: 10_000 },
  );
  overloadLabel = `overload: 200 connections, ${overloadSeconds} s, search 'cloud' over 1,600 pages and sorts`;
} finally {
  child.kill("SIGTERM");
}

console.info(
  `Stackbay benchmark: ${server.kind}, ${server.productCount} products (seeded in ${server.seedSeconds.toFixed(1)} s), ` +
    `${seconds} s per scenario, server and load generator share ${os.cpus().length} cores`,
);
console.table(rows);
if (overload) {
  console.info(overloadLabel);
  console.table({
    [overloadLabel.split(":")[0] as string]: {
      requests: overload.requests,
      "req/s": overload.rps,
      "p50 ms": overload.p50,
      "p99 ms": overload.p99,
      "max ms": overload.max,
      "503 (busy)": overload.busy,
      "timeouts (10 s)": overload.timeouts,
      errors: overload.errors,
    },
  });
}
for (const [name, plan] of Object.entries(server.plans)) {
  console.info(`Plan, ${name}:\n${plan.map((l) => `  ${l}`).join("\n")}`);
}
await printPageCpu().catch((error: unknown) =>
  console.info(
    `The page CPU scenarios could not run: ${error instanceof Error ? error.message : String(error)}`,
  ),
);
await printRouteJs();
// The API figures above stand even if the browser measurement cannot run.
await runLighthouse().catch((error: unknown) =>
  console.info(`Lighthouse could not run: ${error instanceof Error ? error.message : String(error)}`),
);
console.info(
  "Subscription renewals at scale (100,000 due at once; PostgreSQL only, several minutes) are not part of " +
    "this run: BENCH_ONLY=renewals DATABASE_URL=<a scratch PostgreSQL database> npm run bench",
);
// Last, once the benchmark server has stopped: a cold start measures the whole machine.
await coldStart().catch((error: unknown) =>
  console.info(
    `The cold start could not be measured: ${error instanceof Error ? error.message : String(error)}`,
  ),
);
