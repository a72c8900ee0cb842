import { mkdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";
import { type SQL, sql } from "drizzle-orm";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import pg from "pg";
import { type ConstructorOptions, fromPglite } from "pg-boss";
import { embeddedDbDir } from "#server/db/cluster";
import * as afterSale from "#server/db/schema/after-sale";
import * as audit from "#server/db/schema/audit";
import * as auth from "#server/db/schema/auth";
import * as catalog from "#server/db/schema/catalog";
import * as content from "#server/db/schema/content";
import * as inbound from "#server/db/schema/inbound";
import * as ledger from "#server/db/schema/ledger";
import * as notifications from "#server/db/schema/notifications";
import * as orders from "#server/db/schema/orders";
import * as paymentMethods from "#server/db/schema/payment-methods";
import * as payments from "#server/db/schema/payments";
import * as payouts from "#server/db/schema/payouts";
import * as platform from "#server/db/schema/platform";
import type { PoolUse } from "#server/lib/metrics";

export const schema = {
  ...auth,
  ...audit,
  ...afterSale,
  ...catalog,
  ...orders,
  ...paymentMethods,
  ...payments,
  ...payouts,
  ...content,
  ...inbound,
  ...ledger,
  ...notifications,
  ...platform,
};
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
/** An open transaction; repository functions that must join the caller's transaction take this. */
export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];
/** What a repository function takes: the database, or the caller's open transaction to join. */
export type Db = Database | Transaction;

export type DatabaseHandle = {
  db: Database;
  kind: "pglite" | "postgres";
  /**
   * Applies pending migrations, then runs `setUp` (the demo seed) if given. On PostgreSQL both run under
   * MIGRATION_LOCK_KEY, so of several instances starting at once one migrates while the others wait and
   * then find nothing to do; the lock is released when they finish or fail.
   */
  migrate(setUp?: (db: Database) => Promise<unknown>): Promise<void>;
  ping(): Promise<void>;
  /** How the job queue (pg-boss) reaches this database: its own small pool, or the same PGlite. */
  queueConnection(): ConstructorOptions;
  /** PGlite only: the whole data directory as a tar archive, to start other databases from. */
  dump?(): Promise<Blob>;
  /**
   * Calls `onNotify` for every NOTIFY on `channel`, on a connection of its own on PostgreSQL that is opened
   * again when lost; `onListening(false)` runs when it is lost (notifications sent until it is back are
   * lost too) and `onListening(true)` once it listens again. Resolves once listening; the answer stops.
   */
  listen(
    channel: string,
    onNotify: (payload: string) => void,
    onListening: (listening: boolean) => void,
  ): Promise<() => Promise<void>>;
  /**
   * Runs a public read that may be abandoned: on PostgreSQL on one connection with a statement timeout,
   * cancelled (pg_cancel_backend) when `signal` aborts. PGlite runs one statement at a time in this process
   * and cannot interrupt it: there the signal only keeps a read from starting.
   */
  cancellableRead<T>(signal: AbortSignal, read: (db: Database) => Promise<T>): Promise<T>;
  /** Requests waiting for a free connection right now (always 0 on PGlite). */
  waitingForConnection(): number;
  /**
   * Clients of each PostgreSQL pool, for the metrics scrape. PGlite has no pool and does not show its
   * queue of statements, so it answers none.
   */
  poolUse(): PoolUse[];
  close(): Promise<void>;
};

/** The rows of a raw SQL query: both drivers answer with `rows`, though drizzle types it per driver. */
export const rowsOf = async <T>(db: Database | Transaction, query: SQL) =>
  ((await db.execute(query)) as unknown as { rows: T[] }).rows;

/** The longest a public catalogue read may run on PostgreSQL before the server gives up on it. */
export const PUBLIC_READ_TIMEOUT_MS = 3_000;

/** Why a read was given up: the client left, or it ran past PUBLIC_READ_TIMEOUT_MS (SQLSTATE 57014). */
export const isCancelledQuery = (error: unknown) =>
  (error as { code?: unknown } | null)?.code === "57014" ||
  (error as { cause?: { code?: unknown } } | null)?.cause?.code === "57014" ||
  (error instanceof Error && error.name === "AbortError");

/**
 * How alike a search word and a word of a product must be for the `<%` operator (and its trigram
 * index) to count it as a near spelling: low enough that "strpie" finds "stripe" and "clod" finds
 * "cloud", high enough that short words do not match everything (decision 0017).
 */
export const WORD_SIMILARITY_THRESHOLD = 0.4;

const migrationsFolder = fileURLToPath(new URL("./migrations", import.meta.url));

/** The PostgreSQL advisory lock (one bigint, "stackbay" in ASCII) instances migrate and seed under. */
export const MIGRATION_LOCK_KEY = "8319381491291414905";

/**
 * Runs `work` holding the migration lock, on a connection of its own: an advisory lock belongs to a
 * session, and a pooled connection could be handed back (still holding it) before the work ends. If
 * the unlock cannot be sent, ending the session releases the lock all the same.
 */
async function underMigrationLock(url: string, work: (db: Database) => Promise<void>) {
  const client = new pg.Client({ connectionString: url });
  client.on("error", () => undefined);
  await client.connect();
  try {
    await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    try {
      await work(drizzleNodePg({ client, schema, casing: "snake_case" }) as unknown as Database);
    } finally {
      await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]).catch(() => undefined);
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * PostgreSQL when a URL is given (production, scale-out); otherwise embedded PGlite in `dataDir`,
 * or in memory when `dataDir` is null (tests).
 */
/**
 * Every PostgreSQL connection's settings. JIT compilation is off: it pays for long analytical queries,
 * and every query here is short, while the first one a connection compiles loads LLVM (the first typo
 * search on a fresh connection took 200 ms, 36 ms without it).
 */
const CONNECTION_OPTIONS = `-c pg_trgm.word_similarity_threshold=${WORD_SIMILARITY_THRESHOLD} -c jit=off`;

export async function openDatabase(options: {
  databaseUrl?: string;
  dataDir: string | null;
  /** PGlite only: start from this data-directory dump (`dumpDataDir`) instead of an empty cluster. */
  snapshot?: Blob;
  /** PGlite only: an embedded database already open (tests hand one on from file to file). */
  pglite?: PGlite;
  /** PGlite only: its WebAssembly as another thread compiled it (`createEmbeddedCluster`), to share. */
  pgliteWasmModule?: WebAssembly.Module;
}): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 20,
      options: CONNECTION_OPTIONS,
    });
    // An idle connection can be cut by the server (restart, failover, a dropped test database). Without
    // a listener that error would crash the process; the pool already discards the connection.
    pool.on("error", (error) => console.warn(`PostgreSQL closed an idle connection: ${error.message}`));
    const db = drizzleNodePg({ client: pool, schema, casing: "snake_case" });
    // Public reads on their own small pool whose connections carry a statement timeout, so an abandoned
    // or runaway catalogue query cannot hold a connection the rest of the site needs.
    const readPool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      statement_timeout: PUBLIC_READ_TIMEOUT_MS,
      options: CONNECTION_OPTIONS,
    });
    readPool.on("error", (error) => console.warn(`PostgreSQL closed an idle connection: ${error.message}`));
    const readDbs = new WeakMap<pg.PoolClient, Database>();
    const listeners = new Set<pg.Client>();
    return {
      db: db as unknown as Database,
      kind: "postgres",
      migrate: (setUp) =>
        underMigrationLock(options.databaseUrl as string, async (locked) => {
          await migrateNodePg(locked as unknown as typeof db, { migrationsFolder });
          // The set-up reads and writes through the pool: only the lock needs the dedicated session.
          if (setUp) await setUp(db as unknown as Database);
        }),
      ping: async () => void (await db.execute(sql`select 1`)),
      queueConnection: () => ({ connectionString: options.databaseUrl, max: 4 }),
      listen: (channel, onNotify, onListening) =>
        listenOnPostgres(options.databaseUrl as string, channel, onNotify, onListening, listeners),
      cancellableRead: async (signal, read) => {
        signal.throwIfAborted();
        const client = await readPool.connect();
        let readDb = readDbs.get(client);
        if (!readDb) {
          readDb = drizzleNodePg({
            client: oneAtATime(client),
            schema,
            casing: "snake_case",
          }) as unknown as Database;
          readDbs.set(client, readDb);
        }
        const cancel = () => {
          // From another connection: the one reading is busy. A cancel that arrives after the read ended
          // finds the backend idle and does nothing.
          pool
            .query("select pg_cancel_backend($1)", [(client as unknown as { processID: number }).processID])
            .catch(() => undefined);
        };
        signal.addEventListener("abort", cancel, { once: true });
        try {
          return await read(readDb);
        } finally {
          signal.removeEventListener("abort", cancel);
          client.release();
        }
      },
      waitingForConnection: () => pool.waitingCount + readPool.waitingCount,
      poolUse: () => [
        { pool: "main", total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount },
        {
          pool: "read",
          total: readPool.totalCount,
          idle: readPool.idleCount,
          waiting: readPool.waitingCount,
        },
      ],
      close: async () => {
        await Promise.all([...listeners].map((listener) => listener.end().catch(() => undefined)));
        await Promise.all([pool.end(), readPool.end()]);
      },
    };
  }
  let dir: string | undefined;
  if (options.dataDir) {
    dir = embeddedDbDir(options.dataDir);
    // PGlite creates only the last folder of its path.
    await mkdir(path.dirname(dir), { recursive: true });
  }
  const client = options.pglite ?? (await openPglite(dir, options.snapshot, options.pgliteWasmModule));
  // PGlite is one session: the search threshold is set on it once (the pool sets it per connection).
  await client.exec(`set pg_trgm.word_similarity_threshold = ${WORD_SIMILARITY_THRESHOLD}`);
  const db = drizzlePglite({ client, schema, casing: "snake_case" });
  return {
    db: db as unknown as Database,
    kind: "pglite",
    // One process owns a PGlite data directory, so there is nobody to take turns with.
    migrate: async (setUp) => {
      await migrateEmbedded(client);
      if (setUp) await setUp(db as unknown as Database);
    },
    ping: async () => void (await db.execute(sql`select 1`)),
    queueConnection: () => ({ db: fromPglite(client), backend: "pglite" }),
    dump: async () => client.dumpDataDir("none"),
    // One process, one database: notifications are delivered as the statement that sent them commits.
    listen: async (channel, onNotify) => {
      const unlisten = await client.listen(channel, onNotify);
      return async () => {
        if (!client.closed) await unlisten();
      };
    },
    cancellableRead: async (signal, read) => {
      signal.throwIfAborted();
      return read(db as unknown as Database);
    },
    waitingForConnection: () => 0,
    poolUse: () => [],
    close: () => client.close(),
  };
}

/**
 * Drizzle's migrator, for PGlite in fewer rounds: the same migration files, the same record of each in
 * `drizzle.__drizzle_migrations` (hash and folder time, so either migrator takes over from the other) and
 * one transaction for all pending migrations, but their statements go to PostgreSQL as one text in a
 * single round (simple query protocol) rather than one parse, describe, bind and execute each. A first
 * start applies every migration, some 360 statements, before it can seed; each round through the
 * embedded database costs JavaScript and WebAssembly work on the server's thread.
 */
async function migrateEmbedded(client: PGlite) {
  const table = `"drizzle"."__drizzle_migrations"`;
  await client.exec(`CREATE SCHEMA IF NOT EXISTS "drizzle";
    CREATE TABLE IF NOT EXISTS ${table} (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at bigint)`);
  const { rows } = await client.query<{ created_at: string }>(
    `select created_at from ${table} order by created_at desc limit 1`,
  );
  const last = rows[0] ? Number(rows[0].created_at) : null;
  const pending = readMigrationFiles({ migrationsFolder }).filter(
    (migration) => last === null || last < migration.folderMillis,
  );
  if (pending.length === 0) return;
  // Each statement ends with its semicolon; the empty statement after it closes one that ended in a
  // comment. The hash is hexadecimal and the time a number, so both are written into the text as is.
  const text = pending
    .map(
      (migration) =>
        `${migration.sql.map((statement) => `${statement}\n;\n`).join("")}` +
        `insert into ${table} ("hash", "created_at") values ('${migration.hash}', ${migration.folderMillis});\n`,
    )
    .join("");
  await client.transaction((tx) => tx.exec(text));
}

/**
 * An embedded PostgreSQL with the extensions the schema uses: in `dir`, or in memory; from a dump if
 * given; with PGlite's WebAssembly compiled by another thread if given, else compiled here.
 */
export function openPglite(
  dir: string | undefined,
  snapshot?: Blob,
  pgliteWasmModule?: WebAssembly.Module,
): Promise<PGlite> {
  return PGlite.create(dir, { extensions: { pg_trgm, unaccent }, loadDataDir: snapshot, pgliteWasmModule });
}

/**
 * LISTEN on a connection of its own (a pooled one would be handed to other queries). When it is lost it
 * is opened again after a growing pause; `onListening` tells the caller when it stops and starts hearing.
 */
/**
 * The same connection, sending its queries one after the other. A read may start several queries at
 * once (a page, its count, its facets); one connection runs them in turn anyway, and `pg` deprecates
 * being handed a query while another is running, so they queue here instead.
 */
function oneAtATime(client: pg.PoolClient): pg.PoolClient {
  let last: Promise<unknown> = Promise.resolve();
  const queued = Object.create(client) as pg.PoolClient;
  queued.query = ((...args: unknown[]) => {
    const run = last.then(() => (client.query as (...a: unknown[]) => Promise<unknown>).apply(client, args));
    last = run.catch(() => undefined);
    return run;
  }) as pg.PoolClient["query"];
  return queued;
}

async function listenOnPostgres(
  url: string,
  channel: string,
  onNotify: (payload: string) => void,
  onListening: (listening: boolean) => void,
  listeners: Set<pg.Client>,
): Promise<() => Promise<void>> {
  let stopped = false;
  let current: pg.Client | null = null;
  let retryTimer: NodeJS.Timeout | undefined;
  const connect = async () => {
    const client = new pg.Client({ connectionString: url });
    client.on("notification", (message) => {
      if (message.channel === channel) onNotify(message.payload ?? "");
    });
    client.on("error", () => undefined);
    await client.connect();
    await client.query(`listen "${channel.replaceAll('"', '""')}"`);
    return client;
  };
  const watch = (client: pg.Client, attempt: number) => {
    current = client;
    listeners.add(client);
    client.once("end", () => {
      listeners.delete(client);
      if (stopped) return;
      console.warn("The catalogue notification connection was lost; reconnecting.");
      onListening(false);
      retry(attempt + 1);
    });
  };
  const retry = (attempt: number) => {
    retryTimer = setTimeout(
      async () => {
        if (stopped) return;
        try {
          const client = await connect();
          if (stopped) return void (await client.end());
          watch(client, 0);
          onListening(true);
        } catch {
          retry(attempt + 1);
        }
      },
      Math.min(5_000, 100 * 2 ** attempt),
    );
    retryTimer.unref();
  };
  watch(await connect(), 0);
  return async () => {
    stopped = true;
    clearTimeout(retryTimer);
    const client = current;
    if (client) {
      listeners.delete(client);
      await client.end().catch(() => undefined);
    }
  };
}
