import { spawn } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import { load } from "./http";

type Edit = { cookie: string; url: string; body: Record<string, unknown> };
type Cpu = { user: number; system: number };

/**
 * Public-page CPU per request (issue 29): the page server's own CPU time (user + system, from
 * `process.cpuUsage()` in that process) over the pages it answered, with a warm cache, then under a flood
 * of unique query strings and under a flood of edits of listings in review. Goal: each flood within 2×
 * of the warm figure. All load comes from one address, as one client's would.
 */
export async function pageCpuScenarios(seconds: number, concurrency: number) {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", path.join(import.meta.dirname, "page-serve.ts")],
    {
      stdio: ["ignore", "pipe", "inherit", "ipc"],
      env: process.env,
    },
  );
  const line = await createInterface({ input: child.stdout! })
    [Symbol.asyncIterator]()
    .next()
    .then((r) => r.value as string);
  const server = JSON.parse(line) as { address: string; edits: Edit[] };
  const cpu = () =>
    new Promise<{ cpu: Cpu; clears: number }>((resolve) => {
      child.once("message", (message) => resolve(message as { cpu: Cpu; clears: number }));
      child.send("cpu");
    });

  /** Page load for `seconds` while `during` runs (it gets a signal to stop); CPU per page answered. */
  async function measure(url: (n: number) => string, during?: (stop: AbortSignal) => Promise<string>) {
    const before = await cpu();
    const stop = new AbortController();
    const side = during?.(stop.signal);
    const result = await load((n) => `${server.address}${url(n)}`, { concurrency, seconds });
    stop.abort();
    const sideCount = (await side) ?? "";
    const after = await cpu();
    const cpuMs = (after.cpu.user - before.cpu.user + after.cpu.system - before.cpu.system) / 1000;
    const clears = after.clears - before.clears;
    return { result, cpuMs, perPage: cpuMs / Math.max(1, result.requests), sideCount, clears };
  }

  /** Sellers saving their listings in review, one after another, each save a new price. */
  const editFlood = async (signal: AbortSignal) => {
    let sent = 0;
    let saved = 0;
    while (!signal.aborted) {
      const edit = server.edits[sent % server.edits.length] as Edit;
      const res = await fetch(`${server.address}${edit.url}`, {
        method: "PATCH",
        headers: { cookie: edit.cookie, "content-type": "application/json" },
        body: JSON.stringify({ ...edit.body, price: 11 + (sent % 50) }),
      });
      await res.arrayBuffer();
      if (res.ok) saved++;
      sent++;
    }
    return `${saved} saved, ${sent - saved} refused`;
  };

  const rows: Record<string, Record<string, string | number>> = {};
  try {
    // Warm: the catalogue page and its data are drawn once and kept.
    await (await fetch(`${server.address}/products`)).arrayBuffer();
    const warm = await measure(() => "/products");
    const floods: [string, Awaited<ReturnType<typeof measure>>][] = [
      ["warm /products", warm],
      [
        "unique tracking/junk query strings",
        await measure((n) => `/products?utm_source=bench${n}&fbclid=${n}&junk${n}=1`),
      ],
      ["unique searches (one client)", await measure((n) => `/products?search=flood${n}`)],
      ["/products during edits of listings in review", await measure(() => "/products", editFlood)],
    ];
    for (const [name, figures] of floods) {
      rows[name] = {
        pages: figures.result.requests,
        "req/s": figures.result.rps,
        "p99 ms": figures.result.p99,
        "server CPU ms": Math.round(figures.cpuMs),
        "CPU ms / page": Math.round(figures.perPage * 100) / 100,
        "× warm": Math.round((figures.perPage / warm.perPage) * 100) / 100,
        "listing edits": figures.sideCount,
        "cache clears": figures.clears,
        errors: figures.result.errors + figures.result.busy,
      };
    }
  } finally {
    child.kill("SIGTERM");
  }
  return rows;
}
