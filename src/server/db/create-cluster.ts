import { workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";

/**
 * A worker thread's whole work (see `createEmbeddedCluster`): PostgreSQL's initdb into `workerData.dir`
 * through PGlite, then a clean shut-down, leaving a cluster the server's own thread opens. Extensions
 * are not needed here: the migrations create them in the database the server opens.
 */
const { dir } = workerData as { dir: string };
const cluster = await PGlite.create(dir);
await cluster.close();
