import { mkdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";
import { sql } from "drizzle-orm";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { type ConstructorOptions, fromPglite } from "pg-boss";
import * as afterSale from "#server/db/schema/after-sale";
import * as audit from "#server/db/schema/audit";
import * as auth from "#server/db/schema/auth";
import * as catalog from "#server/db/schema/catalog";
import * as content from "#server/db/schema/content";
import * as inbound from "#server/db/schema/inbound";
import * as ledger from "#server/db/schema/ledger";
import * as orders from "#server/db/schema/orders";
import * as payments from "#server/db/schema/payments";
import * as payouts from "#server/db/schema/payouts";
import * as platform from "#server/db/schema/platform";

export const schema = {
  ...auth,
  ...audit,
  ...afterSale,
  ...catalog,
  ...orders,
  ...payments,
  ...payouts,
  ...content,
  ...inbound,
  ...ledger,
  ...platform,
};
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
/** An open transaction; repository functions that must join the caller's transaction take this. */
export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

export type DatabaseHandle = {
  db: Database;
  kind: "pglite" | "postgres";
  migrate(): Promise<void>;
  ping(): Promise<void>;
  /** How the job queue (pg-boss) reaches this database: its own small pool, or the same PGlite. */
  queueConnection(): ConstructorOptions;
  /** PGlite only: the whole data directory as a tar archive, to start other databases from. */
  dump?(): Promise<Blob>;
  close(): Promise<void>;
};

/**
 * How alike a search word and a word of a product must be for the `<%` operator (and its trigram
 * index) to count it as a near spelling: low enough that "strpie" finds "stripe" and "clod" finds
 * "cloud", high enough that short words do not match everything (decision 0017).
 */
export const WORD_SIMILARITY_THRESHOLD = 0.4;

const migrationsFolder = fileURLToPath(new URL("./migrations", import.meta.url));

/**
 * PostgreSQL when a URL is given (production, scale-out); otherwise embedded PGlite in `dataDir`,
 * or in memory when `dataDir` is null (tests).
 */
export async function openDatabase(options: {
  databaseUrl?: string;
  dataDir: string | null;
  /** PGlite only: start from this data-directory dump (`dumpDataDir`) instead of an empty cluster. */
  snapshot?: Blob;
}): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 20,
      options: `-c pg_trgm.word_similarity_threshold=${WORD_SIMILARITY_THRESHOLD}`,
    });
    // An idle connection can be cut by the server (restart, failover, a dropped test database). Without
    // a listener that error would crash the process; the pool already discards the connection.
    pool.on("error", (error) => console.warn(`PostgreSQL closed an idle connection: ${error.message}`));
    const db = drizzleNodePg({ client: pool, schema, casing: "snake_case" });
    return {
      db: db as unknown as Database,
      kind: "postgres",
      migrate: () => migrateNodePg(db, { migrationsFolder }),
      ping: async () => void (await db.execute(sql`select 1`)),
      queueConnection: () => ({ connectionString: options.databaseUrl, max: 4 }),
      close: () => pool.end(),
    };
  }
  let dir: string | undefined;
  if (options.dataDir) {
    dir = path.resolve(options.dataDir, "db");
    // PGlite creates only the last folder of its path.
    await mkdir(path.dirname(dir), { recursive: true });
  }
  const client = await PGlite.create(dir, {
    extensions: { pg_trgm, unaccent },
    loadDataDir: options.snapshot,
  });
  // PGlite is one session: the search threshold is set on it once (the pool sets it per connection).
  await client.exec(`set pg_trgm.word_similarity_threshold = ${WORD_SIMILARITY_THRESHOLD}`);
  const db = drizzlePglite({ client, schema, casing: "snake_case" });
  return {
    db: db as unknown as Database,
    kind: "pglite",
    migrate: () => migratePglite(db, { migrationsFolder }),
    ping: async () => void (await db.execute(sql`select 1`)),
    queueConnection: () => ({ db: fromPglite(client), backend: "pglite" }),
    dump: async () => client.dumpDataDir("none"),
    close: () => client.close(),
  };
}
