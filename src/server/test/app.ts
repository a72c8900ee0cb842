import { randomBytes } from "node:crypto";
import { cp, mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { SQL } from "drizzle-orm";
import type { InjectOptions, LightMyRequestResponse as LightResponse } from "fastify";
import pg from "pg";
import { inject } from "vitest";
import { type App, buildApp } from "#server/app";
import { type Database, type DatabaseHandle, openDatabase } from "#server/db/client";
import { loadEnv } from "#server/env";
import type { MailTransport } from "#server/mail/mailer";
import type { ProviderFactories } from "#server/payments/registry";
import { databaseUrlOf } from "#server/test/global-setup";

/**
 * A database of its own for a test file: in-memory PGlite by default, or, when DATABASE_URL is set (CI's
 * PostgreSQL run), a new database on that server, dropped afterwards. It starts empty, migrated, or
 * migrated and seeded with demo data; the last two are copies of templates the run made once
 * (`global-setup.ts`).
 */
export async function createTestDatabase(
  start: "empty" | "migrated" | "seeded" = "empty",
): Promise<DatabaseHandle> {
  const templates = inject("databaseTemplates");
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    const snapshot = start === "empty" ? undefined : new Blob([await readFile(templates[start] as string)]);
    return openDatabase({ dataDir: null, snapshot });
  }
  const name = `stackbay_test_${randomBytes(6).toString("hex")}`;
  const template = start === "empty" ? "" : ` template ${templates[start]}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}${template}`);
  await admin.end();
  const handle = await openDatabase({ databaseUrl: databaseUrlOf(serverUrl, name), dataDir: null });
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
    mailTransport?: MailTransport;
    /** Payment adapters for methods whose keys `env` sets; the others run in test mode. */
    paymentFactories?: ProviderFactories;
    logStream?: { write(line: string): void };
    /**
     * Whether each injected request answers only once the jobs it queued have run (true): tests read
     * the outbox right after a request. False measures the request alone.
     */
    settleJobs?: boolean;
    /** False: jobs are queued but never run, as in a process that stopped before running them. */
    workers?: boolean;
    /** Further environment values, as the process would set them (e.g. REFUND_WINDOW_DAYS: "3"). */
    env?: Record<string, string>;
  } = {},
) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "stackbay-test-"));
  const env = loadEnv({
    // API tests reach no network: the VAT registers answer "unavailable" unless a test points them
    // at its stand-in (test/vat-registers-stand-in.ts). Nothing listens on the discard port.
    VIES_API_BASE: "http://127.0.0.1:9/vies",
    HMRC_API_BASE: "http://127.0.0.1:9/hmrc",
    ...options.env,
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    LOG_LEVEL: options.logStream ? "trace" : "silent",
    AUTH_SECRET: randomBytes(32).toString("base64url"),
  });
  const database = await createTestDatabase(options.seed ? "seeded" : "migrated");
  if (options.seed)
    await cp(inject("databaseTemplates").uploadsDir, path.join(dataDir, "uploads"), { recursive: true });
  const app = await buildApp({
    env,
    database,
    webRoot: options.webRoot ?? null,
    mailTransport: options.mailTransport,
    schedules: false,
    workers: options.workers,
    paymentFactories: options.paymentFactories,
    logStream: options.logStream,
  });
  await app.ready();
  if (options.settleJobs !== false && options.workers !== false) settleJobsAfterEachRequest(app);
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

/**
 * E-mail and other queued work run in the background; a test reads the outbox right after a request, so
 * every injected request answers once the work it queued (that is due now) has run.
 */
function settleJobsAfterEachRequest(app: App) {
  const injectNow = app.inject.bind(app) as (opts: InjectOptions | string) => Promise<LightResponse>;
  app.inject = (async (opts: InjectOptions | string) => {
    const res = await injectNow(opts);
    // A test that broke the database on purpose gets its answer; the queue cannot be asked then.
    await app.jobs.idle().catch(() => undefined);
    return res;
  }) as unknown as typeof app.inject;
}

/** Raw SQL in tests: both drivers (pg and PGlite) answer with `{ rows }`. */
export async function queryRows<T>(db: Database, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}
