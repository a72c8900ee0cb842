import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { expect, test } from "vitest";
import { openDatabase } from "#server/db/client";
import { createEmbeddedCluster, hasEmbeddedCluster } from "#server/db/cluster";
import { categories } from "#server/db/schema/catalog";

// What `npm start` relies on: the embedded database in DATA_DIR keeps its data across restarts.
test("the embedded database keeps its data after it is closed and opened again", async () => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "stackbay-persist-"));
  try {
    const first = await openDatabase({ dataDir });
    await first.migrate();
    await first.db.insert(categories).values({ name: "Hardware", slug: "hardware" });
    await first.close();

    const second = await openDatabase({ dataDir });
    await second.migrate();
    const rows = await second.db.select().from(categories).where(eq(categories.slug, "hardware"));
    await second.close();
    expect(rows.map((r) => r.name)).toEqual(["Hardware"]);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});

/** The longest the event loop went without running a timer while `work` ran. */
async function longestStall(work: () => Promise<unknown>): Promise<number> {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 5);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  return Math.max(longest, performance.now() - last);
}

// A first start: initdb (seconds of CPU) runs in a worker thread while the server's thread loads its
// modules, and the cluster it leaves is the embedded database of every later start.
test("a first start's cluster is created off the calling thread and opens like any other", async () => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "stackbay-cluster-"));
  try {
    expect(hasEmbeddedCluster(dataDir)).toBe(false);
    let pgliteWasmModule: WebAssembly.Module | undefined;
    const stall = await longestStall(async () => {
      pgliteWasmModule = await createEmbeddedCluster(dataDir);
    });
    expect(hasEmbeddedCluster(dataDir)).toBe(true);
    // Creating it on this thread stopped the event loop for seconds at a time.
    expect(stall).toBeLessThan(1_000);
    // The worker's compiled PGlite, so this thread does not compile (and optimise) it all again.
    expect(pgliteWasmModule).toBeInstanceOf(WebAssembly.Module);

    const database = await openDatabase({ dataDir, pgliteWasmModule });
    await database.migrate();
    await database.db.insert(categories).values({ name: "Software", slug: "software" });
    await database.close();
    // Already there: nothing to create (nor compiled), and the data stays.
    expect(await createEmbeddedCluster(dataDir)).toBeUndefined();
    const again = await openDatabase({ dataDir });
    const rows = await again.db.select().from(categories).where(eq(categories.slug, "software"));
    await again.close();
    expect(rows.map((r) => r.name)).toEqual(["Software"]);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});
