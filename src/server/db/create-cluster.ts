import { readFile } from "node:fs/promises";
import { parentPort, workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";

/**
 * A worker thread's whole work (see `createEmbeddedCluster`): PostgreSQL's initdb into `workerData.dir`
 * through PGlite, then a clean shut-down, leaving a cluster the server's own thread opens. Extensions
 * are not needed here: the migrations create them in the database the server opens.
 *
 * PGlite's WebAssembly is compiled here and the compiled module handed to the calling thread, which opens
 * the database with it: V8 compiles a module's functions lazily and recompiles the busiest ones with its
 * optimising compiler (seconds of CPU for PostgreSQL's executor, parser and catalogue code), and a module
 * shared between threads keeps what either thread compiled, where each thread's own copy would do it all
 * again.
 */
const { dir } = workerData as { dir: string };
const pgliteWasmModule = await WebAssembly.compile(
  await readFile(new URL("pglite.wasm", import.meta.resolve("@electric-sql/pglite"))),
);
const cluster = await PGlite.create(dir, { pgliteWasmModule });
await cluster.close();
parentPort?.postMessage(pgliteWasmModule);
