/**
 * One journey server in a process of its own (started by `e2e/global-setup.ts`): the built app on a copy
 * of the seeded demo, listening on the port it is given. Servers in their own processes run beside each
 * other and beside the tests on every core, as production instances do; in the test runner's process
 * they shared one thread, and every page of every worker waited for it.
 *
 * Reads its set-up from `E2E_SERVER` (JSON, `ServerSetUp`), prints one line `ready <json>` (`ServerReady`)
 * once it listens, and closes on SIGTERM.
 */
import { readFile } from "node:fs/promises";
import { buildApp } from "#server/app";
import { openDatabase } from "#server/db/client";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import { loadEnv } from "#server/env";
import { webRoot } from "#server/web/build";

export type ServerSetUp = {
  /** The app's environment (DATA_DIR, PORT, secrets, stand-in addresses). */
  env: Record<string, string>;
  /** The seeded embedded database's dump, to start from. */
  snapshotFile: string;
};

export type ServerReady = {
  baseUrl: string;
  /** Session cookies of each demo account, signed in once. */
  sessions: Record<string, { name: string; value: string }[]>;
};

export const READY = "ready ";

/** Started as a process of its own with E2E_SERVER; imported by the global set-up for its types. */
if (process.env.E2E_SERVER) await serve(JSON.parse(process.env.E2E_SERVER) as ServerSetUp);

async function serve(setUp: ServerSetUp) {
  const env = loadEnv(setUp.env);
  const database = await openDatabase({
    dataDir: env.DATA_DIR,
    snapshot: new Blob([await readFile(setUp.snapshotFile)]),
  });
  const app = await buildApp({ env, database, webRoot });
  const baseUrl = await app.listen({ port: env.PORT, host: "127.0.0.1" });
  const sessions: ServerReady["sessions"] = {};
  for (const who of ["buyer", "seller", "reseller", "admin", "superadmin"]) {
    const res = await app.inject({
      method: "POST",
      url: "/api/auth/sign-in",
      payload: { email: `${who}@stackbay.test`, password: DEMO_PASSWORD },
    });
    if (res.statusCode !== 200) throw new Error(`Signing in ${who} failed: ${res.body}`);
    sessions[who] = res.cookies.map((c) => ({ name: c.name, value: c.value }));
  }
  const ready: ServerReady = { baseUrl, sessions };
  process.stdout.write(`${READY}${JSON.stringify(ready)}\n`);

  process.once("SIGTERM", () => {
    void app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
