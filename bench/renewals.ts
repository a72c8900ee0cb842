import { type ChildProcess, spawn } from "node:child_process";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";

/**
 * `BENCH_ONLY=renewals npm run bench` (PostgreSQL only, opt-in: at the default size it takes a minute or two):
 * the renewal job invoicing BENCH_SUBSCRIPTIONS (100,000) subscriptions that all fall due at once, in
 * test mode, while the catalogue listing is under a steady load; the goal is ≥ 500 renewals/s with the
 * listing's p99 still ≤ 50 ms. bench/renewals-serve.ts (a child process) seeds the database and runs the
 * app and the renewal run; this process generates the listing load and prints the figures.
 */
const GOAL_RENEWALS_PER_SECOND = 500;
const GOAL_P99_MS = 50;
const connections = Number(process.env.BENCH_LISTING_CONNECTIONS ?? 20);
/** Listing requests per second, spread evenly over the connections: a steady, moderate load. */
const rate = Number(process.env.BENCH_LISTING_RATE ?? 100);
const baselineSeconds = Number(process.env.BENCH_BASELINE_SECONDS ?? 15);
const TIMEOUT_MS = 10_000;

/** Listings the catalogue cache keeps once asked (the run.ts scenarios'). */
const cachedListings = [
  "/api/products",
  "/api/products?category=hardware&discount=true&sort=price-low",
  "/api/products?search=cloud",
  "/api/products?sort=rating",
];
const sorts = ["newest", "price-low", "price-high", "rating"];
/**
 * Request n's listing: every other one a cached listing, the others a price filter no request asked
 * before (a new minimum price each, to the cent), so half the load reaches the database.
 */
const listingOf = (n: number) =>
  n % 2 === 0
    ? { url: cachedListings[(n / 2) % cachedListings.length] as string, cached: true }
    : {
        url: `/api/products?minPrice=${((n % 200_000) / 100).toFixed(2)}&sort=${sorts[Math.floor(n / 2) % 4]}`,
        cached: false,
      };

type Sample = { ms: number; cached: boolean };
type LoadFigures = ReturnType<typeof figuresOf>;

/**
 * A steady load: `rate` requests a second, each connection sending on its own fixed schedule. A request's
 * latency is counted from when the schedule meant to send it, so a slow answer that delays the next
 * request of its connection counts that delay too (no coordinated omission). Runs until `stop()`.
 */
function steadyLoad(origin: string) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const samples: Sample[] = [];
  const statuses = { busy: 0, errors: 0, timeouts: 0 };
  let stopped = false;
  let n = 0;
  const interval = (connections * 1000) / rate;
  const started = performance.now();
  const one = (url: string) =>
    new Promise<number>((resolve) => {
      const request = http.get(`${origin}${url}`, { agent, timeout: TIMEOUT_MS }, (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode ?? 0));
        response.on("error", () => resolve(0));
      });
      request.on("timeout", () => {
        request.destroy();
        resolve(-1);
      });
      request.on("error", () => resolve(0));
    });
  const connection = async (index: number) => {
    for (let i = 0; !stopped; i++) {
      const at = started + (index * interval) / connections + i * interval;
      const wait = at - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      if (stopped) break;
      const { url, cached } = listingOf(n++);
      const status = await one(url);
      if (status === 200) samples.push({ ms: performance.now() - at, cached });
      else if (status === 503) statuses.busy++;
      else if (status === -1) statuses.timeouts++;
      else statuses.errors++;
    }
  };
  const running = Promise.all(Array.from({ length: connections }, (_, index) => connection(index)));
  return {
    stop: async () => {
      stopped = true;
      await running;
      agent.destroy();
      return figuresOf(samples, statuses, (performance.now() - started) / 1000);
    },
  };
}

function percentile(sorted: number[], q: number) {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number;
}
const round = (ms: number) => Math.round(ms * 10) / 10;

function figuresOf(
  samples: Sample[],
  statuses: { busy: number; errors: number; timeouts: number },
  seconds: number,
) {
  const all = samples.map((s) => s.ms).sort((a, b) => a - b);
  const uncached = samples
    .filter((s) => !s.cached)
    .map((s) => s.ms)
    .sort((a, b) => a - b);
  return {
    seconds,
    requests: samples.length + statuses.busy + statuses.errors + statuses.timeouts,
    rps: Math.round((samples.length / seconds) * 10) / 10,
    p50: round(percentile(all, 0.5)),
    p95: round(percentile(all, 0.95)),
    p99: round(percentile(all, 0.99)),
    max: round(all.at(-1) ?? Number.NaN),
    uncachedP99: round(percentile(uncached, 0.99)),
    ...statuses,
  };
}

async function measure(origin: string, seconds: number) {
  const load = steadyLoad(origin);
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  return load.stop();
}

type Setup = {
  address: string;
  kind: string;
  settings: Record<string, string>;
  subscriptions: number;
  orders: number;
  due: number;
  product: string;
  unitPrice: string;
  paidThrough: string;
  seedSeconds: number;
  subscriptionsSeconds: number;
  batch: number;
  workers: boolean;
};
type Ran = {
  type: "ran";
  run: { invoiced: number; reminded: number; ended: number };
  seconds: number;
  cpuSeconds: number;
  mailsDelivered: number;
  loopDelayMs: { p50: number; p99: number; max: number };
  batchQueries: number[];
  statements: { pool: string; statement: string; count: number; ms: number }[];
};
type Checked = { type: "checked"; figures: Record<string, number> };

function ask<T>(child: ChildProcess, type: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: { type: string; error?: string }) => {
      child.off("exit", onExit);
      child.off("message", onMessage);
      if (message.type === "failed") reject(new Error(message.error));
      else resolve(message as T);
    };
    const onExit = (code: number | null) => reject(new Error(`the benchmark server exited (${code})`));
    child.on("message", onMessage);
    child.once("exit", onExit);
    child.send({ type });
  });
}

/** The machine's CPU time so far, busy and in all, from /proc/stat's figures as os.cpus() reads them. */
function machineCpu() {
  let busy = 0;
  let total = 0;
  for (const cpu of os.cpus()) {
    const { user, nice, sys, idle, irq } = cpu.times;
    busy += user + nice + sys + irq;
    total += user + nice + sys + idle + irq;
  }
  return { busy, total };
}

const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" / ");

export async function renewalsBench(): Promise<void> {
  if (!process.env.DATABASE_URL) {
    console.error(
      "The renewals benchmark measures PostgreSQL: set DATABASE_URL to a scratch PostgreSQL database " +
        "(it is migrated, seeded and filled with BENCH_SUBSCRIPTIONS subscriptions), e.g.\n" +
        "  BENCH_ONLY=renewals DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_renewals npm run bench",
    );
    process.exitCode = 1;
    return;
  }
  const loadBefore = loadAverage();
  const cores = os.cpus().length;
  const setupStarted = performance.now();
  const child = spawn(
    process.execPath,
    ["--import", "tsx", path.join(import.meta.dirname, "renewals-serve.ts")],
    { stdio: ["ignore", "pipe", "inherit", "ipc"], env: process.env },
  );
  try {
    const line = await new Promise<string>((resolve, reject) => {
      child.once("exit", (code) => reject(new Error(`the benchmark server exited during set-up (${code})`)));
      createInterface({ input: child.stdout! }).once("line", resolve);
    });
    const setup = JSON.parse(line) as Setup;
    const setupSeconds = (performance.now() - setupStarted) / 1000;
    const origin = setup.address;
    // Warm-up: the cached listings cached, connections and plans made.
    await measure(origin, 3);
    const baseline = await measure(origin, baselineSeconds);
    const loadAtRun = loadAverage();
    const cpuBefore = machineCpu();
    const during = steadyLoad(origin);
    const ran = await ask<Ran>(child, "run");
    const underRun = await during.stop();
    const cpuAfter = machineCpu();
    const busyShare = (cpuAfter.busy - cpuBefore.busy) / (cpuAfter.total - cpuBefore.total);
    const checked = (await ask<Checked>(child, "check")).figures;

    const n = setup.subscriptions;
    const perSecond = ran.run.invoiced / ran.seconds;
    const exact =
      checked.subscriptions === n &&
      checked.claims === n &&
      checked.subscriptions_claimed === n &&
      checked.claims_of_another_period === 0 &&
      checked.renewal_orders === n &&
      checked.renewal_order_items === n &&
      checked.orders_without_claim === 0 &&
      checked.claims_on_another_order === 0 &&
      ran.run.invoiced === n;
    const clean = underRun.busy + underRun.errors + underRun.timeouts === 0;

    console.info(
      `Renewals benchmark: PostgreSQL ${setup.settings.version} (shared_buffers ${setup.settings.shared_buffers}, ` +
        `fsync ${setup.settings.fsync}, synchronous_commit ${setup.settings.synchronous_commit}); figures are for PostgreSQL only. ` +
        `Server, PostgreSQL and load generator share ${cores} cores; load average (1/5/15 min) ${loadBefore} before, ` +
        `${loadAtRun} when the run started, ${loadAverage()} at the end; machine CPU busy ${Math.round(busyShare * 100)}% during the run.`,
    );
    console.info(
      `${n.toLocaleString("en-US")} monthly subscriptions of "${setup.product}" (${setup.unitPrice} each, ` +
        `${setup.orders.toLocaleString("en-US")} paid test-mode origin orders), paid through ${setup.paidThrough}: ` +
        `${setup.due.toLocaleString("en-US")} due at set-up. runRenewals once, in the server process, ` +
        `${setup.batch} subscriptions a transaction. E-mail: ${setup.workers ? "the mail job runs (a transport that only counts)" : "queued, not delivered (BENCH_WORKERS=0)"}.`,
    );
    console.info(
      `Listing load: ${rate} requests/s over ${connections} connections, half cached listings, half a new price ` +
        "filter each (reaching the database); latency from each request's scheduled start.",
    );
    console.table({
      renewals: {
        subscriptions: n,
        "setup s": Math.round(setupSeconds * 10) / 10,
        "of which migrate + demo seed s": Math.round(setup.seedSeconds * 10) / 10,
        "of which subscriptions s": Math.round(setup.subscriptionsSeconds * 10) / 10,
        "run s": Math.round(ran.seconds * 10) / 10,
        invoiced: ran.run.invoiced,
        "renewals/s": Math.round(perSecond),
        "server CPU s during run": Math.round(ran.cpuSeconds * 10) / 10,
        "mails delivered during run": ran.mailsDelivered,
        "server event loop delay p99 / max ms": `${round(ran.loopDelayMs.p99)} / ${round(ran.loopDelayMs.max)}`,
      },
    });
    const listingRow = (figures: LoadFigures) => ({
      "s measured": Math.round(figures.seconds),
      "answered/s": figures.rps,
      "p50 ms": figures.p50,
      "p95 ms": figures.p95,
      "p99 ms": figures.p99,
      "max ms": figures.max,
      "uncached p99 ms": figures.uncachedP99,
      "503 (busy)": figures.busy,
      "timeouts (10 s)": figures.timeouts,
      errors: figures.errors,
    });
    console.table({
      "listing without the run": listingRow(baseline),
      "listing during the run": listingRow(underRun),
    });
    console.table({
      [`renewals/s ≥ ${GOAL_RENEWALS_PER_SECOND}`]: {
        measured: Math.round(perSecond),
        met: perSecond >= GOAL_RENEWALS_PER_SECOND ? "yes" : "NO",
      },
      [`listing p99 ≤ ${GOAL_P99_MS} ms during the run, no 503/errors`]: {
        measured: underRun.p99,
        met: underRun.p99 <= GOAL_P99_MS && clean ? "yes" : "NO",
      },
      "every subscription invoiced exactly once": { measured: ran.run.invoiced, met: exact ? "yes" : "NO" },
    });
    console.info(`Check by SQL after the run (${exact ? "as expected" : "NOT as expected"}):`);
    console.table({ counted: checked });
    // The run's own statements: the main pool's, less the job queue's record of each mail job's run.
    const own = ran.statements.filter((s) => s.pool === "main" && !s.statement.includes("job_runs"));
    const sent = own.reduce((sum, s) => sum + s.count, 0);
    const waited = own.reduce((sum, s) => sum + s.ms, 0) / 1000;
    const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / Math.max(1, values.length);
    const tenth = Math.max(1, Math.floor(ran.batchQueries.length / 10));
    console.info(
      `Statements of the run (main pool, the job queue's job_runs records left out): ${sent.toLocaleString("en-US")}, ` +
        `${(sent / Math.max(1, ran.batchQueries.length)).toFixed(1)} a batch of up to ${setup.batch}, ` +
        `${(sent / Math.max(1, ran.run.invoiced)).toFixed(3)} a renewal; ${waited.toFixed(1)} s of the run's ` +
        `${ran.seconds.toFixed(1)} s waiting for their answers (the rest is JavaScript in the server, its other work ` +
        `included). The query picking each batch (${ran.batchQueries.length} batches): ` +
        `${mean(ran.batchQueries.slice(0, tenth)).toFixed(1)} ms on average over the first tenth of the batches, ` +
        `${mean(ran.batchQueries.slice(-tenth)).toFixed(1)} ms over the last. By statement and pool, as the client ` +
        "sees them (from sending to answer, with any wait behind another statement of the same connection):",
    );
    console.table(
      Object.fromEntries(
        ran.statements
          .toSorted((a, b) => b.ms - a.ms)
          .slice(0, 16)
          .map((s) => [
            `${s.pool}: ${s.statement}`,
            {
              count: s.count,
              "per batch": Math.round((s.count / Math.max(1, ran.batchQueries.length)) * 100) / 100,
              "per renewal": Math.round((s.count / Math.max(1, ran.run.invoiced)) * 1000) / 1000,
              "total s": Math.round(s.ms / 100) / 10,
              "mean ms": Math.round((s.ms / s.count) * 100) / 100,
            },
          ]),
      ),
    );
  } finally {
    child.kill("SIGTERM");
  }
}
