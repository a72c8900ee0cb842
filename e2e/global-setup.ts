import { randomBytes } from "node:crypto";
import { cp, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { buildApp } from "#server/app";
import { openDatabase } from "#server/db/client";
import { DEMO_PASSWORD, seedDemo } from "#server/db/seed/demo";
import { loadEnv } from "#server/env";
import { freePort } from "#server/test/ports";
import { startVatStandIn, type VatStandIn } from "#server/test/vat-registers-stand-in";
import { ensureWebBuild, webRoot } from "#server/web/build";

export type E2eServer = {
  baseUrl: string;
  dataDir: string;
  /** Session cookies of each demo account, signed in once, so journeys that are not about logging in skip it. */
  sessions: Record<string, { name: string; value: string }[]>;
};

declare module "vitest" {
  export interface ProvidedContext {
    /** One server per worker (see `e2e/browser.ts`). */
    servers: E2eServer[];
  }
}

/** The first server's database and pictures just after the seed, for the next servers to start from. */
type Seeded = { snapshot: Blob; uploadsDir: string };

/**
 * A real server for the journeys: the built app, a temporary DATA_DIR with demo data, a free port. The
 * first server migrates and seeds; the others open a copy of its freshly seeded database and pictures
 * (the seed runs on one core, and gives every server the same data anyway).
 */
async function startServer(
  registers: VatStandIn,
  seeded: Seeded | undefined,
): Promise<{ server: E2eServer; seeded: Seeded; close: () => Promise<void> }> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "stackbay-e2e-"));
  // A known port, so links the server writes (reseller links, e-mails) point at this server.
  const port = await freePort();
  const env = loadEnv({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    LOG_LEVEL: "warn",
    PORT: String(port),
    AUTH_SECRET: randomBytes(32).toString("base64url"),
    // VIES and HMRC are the local stand-in: journeys reach no network.
    VIES_API_BASE: registers.viesUrl,
    HMRC_API_BASE: registers.hmrcUrl,
    HMRC_CLIENT_ID: registers.hmrc.clientId,
    HMRC_CLIENT_SECRET: registers.hmrc.clientSecret,
    // Every journey of a worker comes from one address: its pages are drawn on the server as a visitor's.
    PAGE_RENDERS_PER_MINUTE: "100000",
    // Set-up accounts sign up from addresses of their own (`newAccount` in e2e/browser.ts).
    TRUST_PROXY: "true",
  });
  const uploadsDir = path.join(dataDir, "uploads");
  let database: Awaited<ReturnType<typeof openDatabase>>;
  if (seeded) {
    database = await openDatabase({ dataDir, snapshot: seeded.snapshot });
    await cp(seeded.uploadsDir, uploadsDir, { recursive: true });
  } else {
    database = await openDatabase({ dataDir });
    await database.migrate();
    await seedDemo(database.db, { uploadsDir });
  }
  const snapshot = seeded?.snapshot ?? (await database.dump!());
  const app = await buildApp({ env, database, webRoot });
  const baseUrl = await app.listen({ port, host: "127.0.0.1" });
  const sessions: E2eServer["sessions"] = {};
  for (const who of ["buyer", "seller", "reseller", "admin", "superadmin"]) {
    const res = await app.inject({
      method: "POST",
      url: "/api/auth/sign-in",
      payload: { email: `${who}@stackbay.test`, password: DEMO_PASSWORD },
    });
    if (res.statusCode !== 200) throw new Error(`Signing in ${who} failed: ${res.body}`);
    sessions[who] = res.cookies.map((c) => ({ name: c.name, value: c.value }));
  }
  return {
    server: { baseUrl, dataDir, sessions },
    seeded: { snapshot, uploadsDir },
    close: async () => {
      await app.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export default async function setup(project: TestProject) {
  // A test build only needs to be fast to make; `npm run build` still compresses at the highest levels.
  await ensureWebBuild(console.info, { quickCompression: true });
  // The VAT numbers the journeys' business buyers give are registered; any other is not.
  const registers = await startVatStandIn({ registered: ["DE136695976", "GB980780684"] });
  const started: Awaited<ReturnType<typeof startServer>>[] = [];
  for (let i = 0; i < project.config.maxWorkers; i++)
    started.push(await startServer(registers, started[0]?.seeded));
  project.provide(
    "servers",
    started.map((s) => s.server),
  );
  return async () => {
    await Promise.all(started.map((s) => s.close()));
    await registers.close();
  };
}
