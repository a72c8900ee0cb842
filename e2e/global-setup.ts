import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import type { TestProject } from "vitest/node";
import { openDatabase } from "#server/db/client";
import { seedDemo } from "#server/db/seed/demo";
import { freePort } from "#server/test/ports";
import { startVatStandIn, type VatStandIn } from "#server/test/vat-registers-stand-in";
import { ensureWebBuild } from "#server/web/build";
import { READY, type ServerReady, type ServerSetUp } from "./server-process";

export type E2eServer = ServerReady & { dataDir: string };

declare module "vitest" {
  export interface ProvidedContext {
    /** One server per worker (see `e2e/browser.ts`). */
    servers: E2eServer[];
  }
}

/** The demo migrated and seeded once, dumped to a file every server loads; its pictures in a folder. */
type Seeded = { snapshotFile: string; uploadsDir: string };

/**
 * Migrates and seeds the embedded database once, as `npm start` does on a first start: each server starts
 * from its dump rather than seeding again (the seed runs on one core, and gives every server the same data).
 */
async function seed(dir: string): Promise<Seeded> {
  const uploadsDir = path.join(dir, "uploads");
  const database = await openDatabase({ dataDir: null });
  try {
    await database.migrate();
    await seedDemo(database.db, { uploadsDir });
    if (!database.dump) throw new Error("an embedded database can always be dumped");
    const snapshotFile = path.join(dir, "seeded.tar");
    await writeFile(snapshotFile, Buffer.from(await (await database.dump()).arrayBuffer()));
    return { snapshotFile, uploadsDir };
  } finally {
    await database.close();
  }
}

/**
 * A real server for the journeys in a process of its own (`e2e/server-process.ts`): the built app, a
 * temporary DATA_DIR with a copy of the seeded demo, a free port.
 */
async function startServer(
  registers: VatStandIn,
  seeded: Seeded,
): Promise<{ server: E2eServer; close: () => Promise<void> }> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "stackbay-e2e-"));
  await cp(seeded.uploadsDir, path.join(dataDir, "uploads"), { recursive: true });
  // A known port, so links the server writes (reseller links, e-mails) point at this server.
  const port = await freePort();
  const setUp: ServerSetUp = {
    env: {
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
    },
    snapshotFile: seeded.snapshotFile,
  };
  const child = spawn(process.execPath, [path.resolve("e2e/server-process.ts")], {
    env: { ...process.env, E2E_SERVER: JSON.stringify(setUp) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const ready = await readyLine(child);
  return {
    server: { ...ready, dataDir },
    close: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The server's `ready` line; its other output (warnings) goes on to this process's. */
function readyLine(child: ChildProcess): Promise<ServerReady> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    let found = false;
    lines.on("line", (line) => {
      if (!found && line.startsWith(READY)) {
        found = true;
        resolve(JSON.parse(line.slice(READY.length)) as ServerReady);
      } else process.stdout.write(`${line}\n`);
    });
    child.once("exit", (code) => {
      if (!found) reject(new Error(`a journey server exited (${code}) before it listened`));
    });
  });
}

export default async function setup(project: TestProject) {
  // A test build only needs to be fast to make; `npm run build` still compresses at the highest levels.
  await ensureWebBuild(console.info, { quickCompression: true });
  // The VAT numbers the journeys' business buyers give are registered; any other is not.
  const registers = await startVatStandIn({ registered: ["DE136695976", "GB980780684"] });
  const dir = await mkdtemp(path.join(os.tmpdir(), "stackbay-e2e-seed-"));
  const seeded = await seed(dir);
  const started = await Promise.all(
    Array.from({ length: project.config.maxWorkers }, () => startServer(registers, seeded)),
  );
  project.provide(
    "servers",
    started.map((s) => s.server),
  );
  return async () => {
    await Promise.all(started.map((s) => s.close()));
    await registers.close();
    await rm(dir, { recursive: true, force: true });
  };
}
