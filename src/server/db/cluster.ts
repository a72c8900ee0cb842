import { once } from "node:events";
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { Worker } from "node:worker_threads";

// Node's built-in modules only: a first start loads this before the rest of the server, so initdb
// begins while everything else is still loading.

/** Where PGlite keeps the embedded database of a DATA_DIR. */
export const embeddedDbDir = (dataDir: string) => path.resolve(dataDir, "db");

/** Whether a DATA_DIR already holds an embedded cluster (a later start): initdb writes PG_VERSION first. */
export const hasEmbeddedCluster = (dataDir: string) =>
  existsSync(path.join(embeddedDbDir(dataDir), "PG_VERSION"));

/**
 * Creates the embedded cluster of a DATA_DIR that has none (PostgreSQL's initdb, some 4 s of CPU on a
 * first start) in a worker thread, so the calling thread goes on loading modules meanwhile;
 * `openDatabase` then opens it as on any later start. The caller holds the data directory's lock.
 * Answers PGlite's compiled WebAssembly module when it created the cluster, for `openDatabase` to open it
 * with (see create-cluster.ts); nothing when the cluster was there already.
 */
export async function createEmbeddedCluster(dataDir: string): Promise<WebAssembly.Module | undefined> {
  if (hasEmbeddedCluster(dataDir)) return undefined;
  const dir = embeddedDbDir(dataDir);
  // PGlite creates only the last folder of its path.
  await mkdir(path.dirname(dir), { recursive: true });
  const worker = new Worker(new URL("./create-cluster.ts", import.meta.url), { workerData: { dir } });
  let compiled: WebAssembly.Module | undefined;
  worker.once("message", (module: WebAssembly.Module) => {
    compiled = module;
  });
  // Rejects with the worker's error if initdb fails.
  const [code] = (await once(worker, "exit")) as [number];
  if (code !== 0) throw new Error(`Creating the embedded database in ${dir} failed (exit code ${code}).`);
  return compiled;
}
