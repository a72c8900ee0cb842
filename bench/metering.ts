import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import autocannon from "autocannon";
import { MAX_USAGE_BATCH } from "#domain/metering";

/**
 * `BENCH_ONLY=metering npm run bench` (PostgreSQL only: set DATABASE_URL to a scratch database). Issue 33's
 * two figures, measured through HTTP against the real app (bench/metering-serve.ts, a child process):
 * 1. usage ingestion through `POST /api/seller/v1/usage/batch`, batches of 1,000 records over the
 *    subscriptions, BENCH_INGEST_CONNECTIONS (8) at once, rotating over the seller's keys; every tenth
 *    batch repeats an earlier one, which must count nothing. Goal: ≥ 20,000 records/s, counted once;
 * 2. license checks (`POST /api/licenses/validate`) at 50 connections, each request from its own
 *    address (x-forwarded-for, which the server trusts here). Goal: ≥ 10,000 checks/s with p99 ≤ 20 ms;
 * 3. on request (BENCH_METERING_PARTS=…,floor), the same load against a bare Fastify route answering a fixed
 *    body in the same server process: what this machine can answer at all with the load generator beside it.
 * Prints the figures, the server process's CPU per request (steadier than rates on a shared machine) and
 * what the database counted; asserts nothing. BENCH_METERING_PARTS ("ingest,check") picks the parts to run;
 * BENCH_CPU_PROF=<dir> writes the server child's CPU profile (node --cpu-prof) there; BENCH_SERVER_FLAGS
 * passes further node flags to it (it already runs with those of `npm start`).
 *
 * On the 2-core development machine shared with other work (decisions 0028 and 0029 tell what changed and
 * give the runs): ingestion 8,700–14,600 records/s (43–53 ms of server CPU per batch; 7,200–13,500 and
 * 51–65 ms before), checks 2,400–3,300/s with p99 99–152 ms (190–230 µs per check; 225–338/s with 503s
 * and 1.8–2.8 ms before), while the bare route answered 8,000–9,100/s: neither goal is reachable on two
 * cores shared by the load generator, PostgreSQL and the server.
 */
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const ingestConnections = Number(process.env.BENCH_INGEST_CONNECTIONS ?? 8);
const checkConnections = Number(process.env.BENCH_CONCURRENCY ?? 50);
const parts = new Set((process.env.BENCH_METERING_PARTS ?? "ingest,check").split(","));
const profileDir = process.env.BENCH_CPU_PROF;
/** The node flags `npm start` serves with (its young generation's size), so the server runs as it would. */
const startFlags = (
  JSON.parse(readFileSync(path.join(import.meta.dirname, "../package.json"), "utf8")) as {
    scripts: { start: string };
  }
).scripts.start
  .split(" ")
  .filter((word) => word.startsWith("--"));

type Setup = {
  address: string;
  floorAddress: string;
  kind: string;
  settings: object;
  subscriptionIds: string[];
  licenseKeys: string[];
  keys: string[];
};

const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" / ");

export async function meteringBench(): Promise<void> {
  if (!process.env.DATABASE_URL) {
    console.error(
      "The metering benchmark measures PostgreSQL: set DATABASE_URL to a scratch database, e.g.\n" +
        "  BENCH_ONLY=metering DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_metering npm run bench",
    );
    process.exitCode = 1;
    return;
  }
  const loadBefore = loadAverage();
  const child = spawn(
    process.execPath,
    [
      ...startFlags,
      ...(profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : []),
      ...(process.env.BENCH_SERVER_FLAGS?.split(" ").filter(Boolean) ?? []),
      "--import",
      "tsx",
      path.join(import.meta.dirname, "metering-serve.ts"),
    ],
    {
      stdio: ["ignore", "pipe", "inherit", "ipc"],
      env: process.env,
    },
  );
  try {
    const line = await new Promise<string>((resolve, reject) => {
      child.once("exit", (code) => reject(new Error(`the benchmark server exited during set-up (${code})`)));
      createInterface({ input: child.stdout! }).once("line", resolve);
    });
    const setup = JSON.parse(line) as Setup;
    /** The server process's CPU time so far, in ms: what a request costs it, whatever else runs on the machine. */
    const serverCpu = () =>
      new Promise<number>((resolve) => {
        const onMessage = (message: { type: string; cpu?: NodeJS.CpuUsage }) => {
          if (message.type !== "cpu" || !message.cpu) return;
          child.off("message", onMessage);
          resolve((message.cpu.user + message.cpu.system) / 1000);
        };
        child.on("message", onMessage);
        child.send({ type: "cpu" });
      });
    const origin = setup.address;
    const usedAt = new Date(Date.now() - 60_000).toISOString();

    if (parts.has("ingest")) {
      // 1. Ingestion. Batch n holds records n·1000 … n·1000+999, each for a subscription in turn; every
      // tenth batch sends batch n−5 again.
      const sent: number[] = [];
      let n = 0;
      const batchOf = (index: number) =>
        JSON.stringify({
          records: Array.from({ length: MAX_USAGE_BATCH }, (_, i) => ({
            subscriptionId:
              setup.subscriptionIds[(index * MAX_USAGE_BATCH + i) % setup.subscriptionIds.length],
            quantity: 1 + (i % 7),
            usedAt,
            idempotencyKey: `bench-${index}-${i}`,
          })),
        });
      let fresh = 0;
      const ingestCpuBefore = await serverCpu();
      const ingest = await autocannon({
        url: origin,
        connections: ingestConnections,
        duration: seconds,
        timeout: 30,
        requests: [
          {
            method: "POST",
            path: "/api/seller/v1/usage/batch",
            setupRequest: (request) => {
              const count = n++;
              const repeat = count % 10 === 9 && fresh > 5;
              const index = repeat ? (sent[fresh - 5] ?? 0) : fresh++;
              if (!repeat) sent.push(index);
              return {
                ...request,
                headers: {
                  "content-type": "application/json",
                  authorization: `Bearer ${setup.keys[count % setup.keys.length]}`,
                },
                body: batchOf(index),
              };
            },
          },
        ],
      });
      const ingestCpu = (await serverCpu()) - ingestCpuBefore;
      const batches = ingest.requests.total;
      const checked = await new Promise<Record<string, string>>((resolve, reject) => {
        child.once(
          "message",
          (message: { type: string; figures?: Record<string, string>; error?: string }) =>
            message.type === "checked" ? resolve(message.figures ?? {}) : reject(new Error(message.error)),
        );
        child.send({ type: "check" });
      });
      const records = Number(checked.records ?? 0);
      console.info(
        `Usage ingestion (PostgreSQL ${JSON.stringify(setup.settings)}; ${ingestConnections} connections, ${seconds} s, batches of ${MAX_USAGE_BATCH}, ${setup.keys.length} keys, ${setup.subscriptionIds.length} subscriptions; load average before ${loadBefore}; goal ≥ 20,000 records/s counted once)`,
      );
      console.table({
        batches: {
          answered: batches,
          "2xx": ingest["2xx"],
          non2xx: ingest.non2xx,
          "by status": JSON.stringify(
            Object.fromEntries(
              Object.entries(ingest.statusCodeStats ?? {}).map(([code, v]) => [code, v.count]),
            ),
          ),
          "p50 ms": ingest.latency.p50,
          "p99 ms": ingest.latency.p99,
          "server CPU ms/batch": (ingestCpu / Math.max(1, batches)).toFixed(1),
        },
      });
      console.table({
        records: {
          "new records stored": records,
          "records/s stored": Math.round(records / ingest.duration),
          "records/s sent (with repeats)": Math.round((ingest["2xx"] * MAX_USAGE_BATCH) / ingest.duration),
          "distinct keys": Number(checked.distinct_keys ?? 0),
          "units in records": checked.recorded_units,
          "units in period sums": checked.period_units,
          "counted once":
            checked.recorded_units === checked.period_units && Number(checked.distinct_keys) === records,
        },
      });
    }
    const checkLoad = async (origin: string, title: string) => {
      // 2. License checks: each request a key in turn, from an address of its own.
      let m = 0;
      const checkCpuBefore = await serverCpu();
      const check = await autocannon({
        url: origin,
        connections: checkConnections,
        duration: seconds,
        requests: [
          {
            method: "POST",
            path: "/api/licenses/validate",
            setupRequest: (request) => {
              const i = m++;
              return {
                ...request,
                headers: {
                  "content-type": "application/json",
                  "x-forwarded-for": `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
                },
                body: JSON.stringify({ key: setup.licenseKeys[i % setup.licenseKeys.length] }),
              };
            },
          },
        ],
      });
      const checkCpu = (await serverCpu()) - checkCpuBefore;
      console.info(
        `${title} (${checkConnections} connections, ${seconds} s, ${setup.licenseKeys.length} keys, one address per request; load average ${loadAverage()}; goal ≥ 10,000/s, p99 ≤ 20 ms)`,
      );
      console.table({
        checks: {
          "checks/s": Math.round(check.requests.total / check.duration),
          "2xx": check["2xx"],
          non2xx: check.non2xx,
          "by status": JSON.stringify(
            Object.fromEntries(
              Object.entries(check.statusCodeStats ?? {}).map(([code, v]) => [code, v.count]),
            ),
          ),
          "p50 ms": check.latency.p50,
          "p99 ms": check.latency.p99,
          "max ms": check.latency.max,
          "server CPU µs/check": Math.round((1000 * checkCpu) / Math.max(1, check.requests.total)),
        },
      });
    };
    if (parts.has("check")) {
      await checkLoad(setup.address, "License checks");
    }
    if (parts.has("floor"))
      await checkLoad(setup.floorAddress, "Floor: a bare Fastify route answering a fixed body");
  } finally {
    child.kill();
  }
}
