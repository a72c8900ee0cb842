/**
 * One renewal pass in a process of its own, for `renewals/crash.test.ts` to kill: the real app on the
 * database the environment names (DATABASE_URL, or the embedded one in DATA_DIR), jobs queued but not
 * worked. Prints `ready` once built, `batch <invoiced> <final bills>` after each committed batch, `done` at
 * the end.
 */
import { buildApp } from "#server/app";
import { openDatabase } from "#server/db/client";
import { loadEnv } from "#server/env";
import { paymentDepsOf } from "#server/modules/payments/service";
import { runRenewals } from "#server/modules/renewals/service";

const env = loadEnv(process.env);
const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
const app = await buildApp({ env, database, webRoot: null, schedules: false, workers: false });
await app.ready();
process.stdout.write("ready\n");
await runRenewals(paymentDepsOf(app), app.clock.now(), (run) =>
  process.stdout.write(`batch ${run.invoiced} ${run.finalBills}\n`),
);
process.stdout.write("done\n");
await app.close();
