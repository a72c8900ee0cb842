import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { SQL } from "drizzle-orm";
import pg from "pg";
import { buildApp } from "#server/app";
import { type Database, type DatabaseHandle, openDatabase } from "#server/db/client";
import { seedDemo } from "#server/db/seed/demo";
import { loadEnv } from "#server/env";
import type { Mailer } from "#server/mail/mailer";
import type { PaymentProvider } from "#server/modules/orders/payments";

/**
 * A fresh database per test file: in-memory PGlite by default, or, when DATABASE_URL is set (CI's
 * PostgreSQL run), a new database created on that server and dropped afterwards.
 */
export async function createTestDatabase(): Promise<DatabaseHandle> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) return openDatabase({ dataDir: null });
  const name = `stackbay_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ databaseUrl: url.href, dataDir: null });
  return {
    ...handle,
    close: async () => {
      await handle.close();
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

export async function createTestApp(
  options: {
    seed?: boolean;
    webRoot?: string | null;
    mailer?: Mailer;
    payments?: PaymentProvider;
    logStream?: { write(line: string): void };
  } = {},
) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "stackbay-test-"));
  const env = loadEnv({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    LOG_LEVEL: options.logStream ? "trace" : "silent",
    AUTH_SECRET: randomBytes(32).toString("base64url"),
  });
  const database = await createTestDatabase();
  await database.migrate();
  if (options.seed) await seedDemo(database.db, { uploadsDir: path.join(dataDir, "uploads") });
  const app = await buildApp({
    env,
    database,
    webRoot: options.webRoot ?? null,
    mailer: options.mailer,
    payments: options.payments,
    logStream: options.logStream,
  });
  await app.ready();
  return {
    app,
    db: database.db,
    dataDir,
    close: async () => {
      await app.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Raw SQL in tests: both drivers (pg and PGlite) answer with `{ rows }`. */
export async function queryRows<T>(db: Database, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}
