import { randomBytes } from "node:crypto";
import { cp, mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { type SQL, sql } from "drizzle-orm";
import type { InjectOptions, LightMyRequestResponse as LightResponse } from "fastify";
import pg from "pg";
import { PgBoss } from "pg-boss";
import { inject } from "vitest";
import { type App, buildApp } from "#server/app";
import { type Database, type DatabaseHandle, openDatabase, openPglite } from "#server/db/client";
import { loadEnv } from "#server/env";
import { DEAD_LETTER } from "#server/jobs/queue";
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
    if (start === "empty") return openDatabase({ dataDir: null });
    return keptDatabase(start, templates.pglite[start]);
  }
  const name = `stackbay_test_${randomBytes(6).toString("hex")}`;
  // Copied file by file, not through the write-ahead log (PostgreSQL 15's default): on the throwaway CI
  // server (fsync off) a seeded copy takes about a quarter of the time.
  if (!templates.postgres) throw new Error("DATABASE_URL was set after the run's set-up made its templates");
  const template = start === "empty" ? "" : ` template ${templates.postgres[start]} strategy file_copy`;
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

/**
 * Embedded databases this worker keeps from one test file to the next (the api project shares a worker's
 * modules between files). Starting PGlite from a dump costs about a second of CPU, most of a small file's
 * time; putting a used one back as its template was costs a fifth of that: its tables emptied and filled
 * again from the template's rows, its sequences set back, its session reset. One whose shape a test
 * changed (a table, column, index, trigger or function added or dropped, or statistics gathered) is closed,
 * never reused.
 */
type Start = "migrated" | "seeded";
type Template = {
  shape: string;
  /** What the planner knows of each table and index (pages, rows, visible pages), as the dump had it. */
  sizes: string;
  tables: string[];
  rows: [string, Blob][];
  sequences: [string, string, boolean][];
};
const kept: Record<Start, PGlite[]> = { migrated: [], seeded: [] };
const templateOf: Partial<Record<Start, Promise<Template>>> = {};
const dumpOf: Partial<Record<Start, Promise<Blob>>> = {};
const OWN_SCHEMAS = "('public', 'pgboss', 'drizzle')";

async function keptDatabase(start: Start, dumpFile: string): Promise<DatabaseHandle> {
  dumpOf[start] ??= readFile(dumpFile).then((bytes) => new Blob([bytes]));
  templateOf[start] ??= openPglite(undefined, await dumpOf[start]).then(async (pristine) => {
    const template = await capture(pristine);
    kept[start].push(pristine);
    return template;
  });
  const template = await templateOf[start];
  let client: PGlite | undefined;
  for (let used = kept[start].pop(); used && !client; used = kept[start].pop()) {
    if (
      await restore(used, template).then(
        () => true,
        () => false,
      )
    )
      client = used;
    else await used.close().catch(() => undefined);
  }
  client ??= await openPglite(undefined, await dumpOf[start]);
  // Lent, not given: once the file closes it, the handle answers as a closed PGlite does (a test that
  // closes the database to break it gets its failures), while the database itself goes back to be kept.
  let returned = false;
  const own = client;
  const channels = new Set<string>();
  const lent = new Proxy(own, {
    get(target, key) {
      if (key === "closed") return returned || target.closed;
      const value = Reflect.get(target, key, target);
      if (typeof value !== "function") return value;
      if (returned) return () => Promise.reject(new Error("PGlite is closed"));
      if (key === "listen")
        return (channel: string, ...rest: unknown[]) => {
          channels.add(channel);
          return (value as (...args: unknown[]) => unknown).call(target, channel, ...rest);
        };
      return value.bind(target);
    },
  });
  const handle = await openDatabase({ dataDir: null, pglite: lent });
  return {
    ...handle,
    close: async () => {
      if (returned) return;
      returned = true;
      if (own.closed) return;
      // Nothing of this file's app may hear the next file's notifications.
      for (const channel of channels) await own.unlisten(channel).catch(() => undefined);
      kept[start].push(own);
    },
  };
}

/** Everything that makes a database's structure: what a test must not have changed for it to be reused. */
async function shapeOf(client: PGlite): Promise<string> {
  const { rows } = await client.query<{ shape: string }>(`
    select md5(string_agg(item, ',' order by item)) as shape from (
      select format('rel %s.%s %s %s', n.nspname, c.relname, c.relkind, c.relnatts) as item
        from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname in ${OWN_SCHEMAS}
      union all select format('att %s.%s %s %s', a.attrelid::regclass, a.attname, a.atttypid, a.attnotnull)
        from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
        where n.nspname in ${OWN_SCHEMAS} and a.attnum > 0 and not a.attisdropped
      union all select format('con %s %s', conrelid::regclass, conname) from pg_constraint c
        join pg_namespace n on n.oid = c.connamespace where n.nspname in ${OWN_SCHEMAS}
      union all select format('trg %s %s %s', tgrelid::regclass, tgname, tgenabled) from pg_trigger where not tgisinternal
      union all select format('fn %s.%s', n.nspname, p.proname) from pg_proc p
        join pg_namespace n on n.oid = p.pronamespace where n.nspname in ${OWN_SCHEMAS}
      union all select format('enum %s %s', enumtypid, enumlabel) from pg_enum
      union all select format('ext %s', extname) from pg_extension
      union all select format('ns %s', nspname) from pg_namespace
      union all select format('role %s', rolname) from pg_roles
      union all select format('statistics %s', count(*)) from pg_statistic s
        join pg_class c on c.oid = s.starelid join pg_namespace n on n.oid = c.relnamespace
        where n.nspname in ${OWN_SCHEMAS}
    ) items`);
  return rows[0]?.shape ?? "";
}

async function capture(client: PGlite): Promise<Template> {
  const tables = (
    await client.query<{ name: string }>(
      `select format('%I.%I', n.nspname, c.relname) as name from pg_class c
         join pg_namespace n on n.oid = c.relnamespace
         where c.relkind = 'r' and n.nspname in ${OWN_SCHEMAS} order by 1`,
    )
  ).rows.map((row) => row.name);
  const rows: Template["rows"] = [];
  for (const name of await tablesWithRows(client, tables)) {
    const { blob } = await client.query(`copy ${name} to '/dev/blob'`);
    if (blob) rows.push([name, blob]);
  }
  const sequences: Template["sequences"] = [];
  const { rows: names } = await client.query<{ name: string }>(
    `select format('%I.%I', schemaname, sequencename) as name from pg_sequences where schemaname in ${OWN_SCHEMAS}`,
  );
  for (const { name } of names) {
    const { rows: at } = await client.query<{ value: string; called: boolean }>(
      `select last_value::text as value, is_called as called from ${name}`,
    );
    if (at[0]) sequences.push([name, at[0].value, at[0].called]);
  }
  const { rows: sizes } = await client.query<{ sizes: string }>(
    `select coalesce(string_agg(format('(%s, %s, %s::real, %s)', c.oid, c.relpages, c.reltuples, c.relallvisible), ', '), '') as sizes
       from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname in ${OWN_SCHEMAS}`,
  );
  return { shape: await shapeOf(client), sizes: sizes[0]?.sizes ?? "", tables, rows, sequences };
}

async function tablesWithRows(client: PGlite, tables: string[]): Promise<string[]> {
  if (tables.length === 0) return [];
  const { rows } = await client.query<{ name: string }>(
    tables.map((name) => `select '${name}' as name where exists (select from ${name})`).join(" union all "),
  );
  return rows.map((row) => row.name);
}

/** Puts a used database back as its template was, or fails (then it is closed, not reused). */
async function restore(client: PGlite, template: Template): Promise<void> {
  if (client.closed) throw new Error("closed");
  // A test that left a transaction open (or broken) gets it rolled back; outside one this only warns.
  await client.exec("rollback");
  if ((await shapeOf(client)) !== template.shape) throw new Error("a test changed the database's shape");
  await client.exec("discard all");
  // Emptied by truncation, not deletion: a table's size is what the planner reads, and deleted rows
  // would leave it larger than the dump's. Rows go back in as they were, with no triggers and no
  // foreign-key checks on the way (replica mode).
  const filled = [
    ...new Set([...(await tablesWithRows(client, template.tables)), ...template.rows.map(([name]) => name)]),
  ];
  await client.exec(
    `set session_replication_role = replica; ${filled.length > 0 ? `truncate ${filled.join(", ")} cascade;` : ""}`,
  );
  for (const [name, blob] of template.rows) await client.query(`copy ${name} from '/dev/blob'`, [], { blob });
  for (const [name, value, called] of template.sequences)
    await client.query("select setval($1, $2::bigint, $3)", [name, value, called]);
  await client.exec("reset session_replication_role");
  // What the planner knows, as it was: each table's and index's size and row count.
  if (template.sizes)
    await client.exec(
      `update pg_class set relpages = v.pages, reltuples = v.tuples, relallvisible = v.visible
         from (values ${template.sizes}) as v(id, pages, tuples, visible) where pg_class.oid = v.id::oid`,
    );
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
 * How many times any job queue in this process was asked to create or revive a job: every pg-boss method
 * that can make a job due counts (sending in all its forms, flows, publishing, resuming, retrying and
 * redriving dead letters); nothing else makes a job appear where none was open. Kept on the global
 * object so that every copy of this module in a worker (the api-mocked project loads one per file)
 * counts on the one patched prototype.
 */
const globals = globalThis as Record<symbol, { count: number } | undefined>;
const jobWritesKey = Symbol.for("stackbay.test.jobWrites");
globals[jobWritesKey] ??= { count: 0 };
const jobWrites = globals[jobWritesKey];
const jobCreating = [
  "send",
  "sendAfter",
  "sendThrottled",
  "sendDebounced",
  "insert",
  "flow",
  "update",
  "upsert",
  "publish",
  "resume",
  "retry",
  "redrive",
  "schedule",
] as const;
const bossMethods = PgBoss.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
for (const name of jobCreating) {
  const original = bossMethods[name];
  if (typeof original !== "function") throw new Error(`pg-boss has no ${name}(): update jobCreating`);
  if ((original as { counted?: boolean }).counted) continue;
  bossMethods[name] = Object.assign(
    function (this: unknown, ...args: unknown[]) {
      jobWrites.count++;
      return original.apply(this, args);
    },
    { counted: true },
  );
}

/** Whether no job of the app's queues (dead letters aside) is waiting, due or not, or running. */
async function noOpenJobs(app: App): Promise<boolean> {
  const [row] = await queryRows<{ none: boolean }>(
    app.database.db,
    sql`select not exists (select from pgboss.job where state <= 'active' and name <> ${DEAD_LETTER}) as none`,
  );
  return row?.none === true;
}

/**
 * E-mail and other queued work run in the background; a test reads the outbox right after a request, so
 * every injected request answers once the work it queued (that is due now) has run. Once a check found
 * no job open at all (waiting, due later, or running), the next requests skip the queue's query until a
 * job is created or revived anywhere in the process: with none open, none can be due. Most requests
 * queue nothing, and that query was one in four of the API tests' statements.
 */
function settleJobsAfterEachRequest(app: App) {
  const injectNow = app.inject.bind(app) as (opts: InjectOptions | string) => Promise<LightResponse>;
  let quietSince: number | null = null;
  app.inject = (async (opts: InjectOptions | string) => {
    const res = await injectNow(opts);
    if (quietSince === jobWrites.count) return res;
    const writes = jobWrites.count;
    // A test that broke the database on purpose gets its answer; the queue cannot be asked then.
    const settled = await app.jobs.idle().then(
      () => noOpenJobs(app),
      () => false,
    );
    quietSince = settled ? writes : null;
    return res;
  }) as unknown as typeof app.inject;
}

/** Raw SQL in tests: both drivers (pg and PGlite) answer with `{ rows }`. */
export async function queryRows<T>(db: Database, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}
