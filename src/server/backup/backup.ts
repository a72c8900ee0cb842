import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { createWriteStream, existsSync, readFileSync } from "node:fs";
import { mkdtemp, open, readdir, rename, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { createGunzip, gunzip, gzip } from "node:zlib";
import { sql } from "drizzle-orm";
import pg from "pg";
import { z } from "zod";
import { ArchiveError, type EntryDigest, readArchive, writeArchive } from "#server/backup/tar";
import { type DatabaseHandle, openDatabase } from "#server/db/client";
import { lockDataDir } from "#server/db/data-dir-lock";
import { contentTypeOf, type FileStorage, isSafeKey } from "#server/storage/storage";

/** Where the data lives: embedded PGlite in DATA_DIR/db, or a PostgreSQL database. */
export type BackupTarget = { kind: "pglite"; dataDir: string } | { kind: "postgres"; url: string };

export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BackupError";
  }
}

const MANIFEST = "manifest.json";
const DATABASE_ENTRY = {
  pglite: "database/pglite-datadir.tar.gz",
  postgres: "database/postgres.sql.gz",
} as const;
const UPLOADS_PREFIX = "uploads/";

const count = z.number().int().min(0);
const checksum = z.string().regex(/^[0-9a-f]{64}$/);
const countsSchema = z.object({ users: count, orders: count, products: count, uploads: count });
export const manifestSchema = z.object({
  format: z.literal("stackbay-backup"),
  version: z.literal(1),
  createdAt: z.iso.datetime(),
  database: z.object({
    kind: z.enum(["pglite", "postgres"]),
    /** Migrations applied, and the tag of the last one: a newer backup cannot be restored by older code. */
    migrations: count,
    lastMigration: z.string().nullable(),
    entry: z.string(),
    size: count,
    sha256: checksum,
  }),
  counts: countsSchema,
  uploads: z.array(z.object({ key: z.string().min(1), size: count, sha256: checksum })),
});
export type BackupManifest = z.infer<typeof manifestSchema>;

const journal = z
  .object({ entries: z.array(z.object({ when: z.number(), tag: z.string() })) })
  .parse(
    JSON.parse(
      readFileSync(fileURLToPath(new URL("../db/migrations/meta/_journal.json", import.meta.url)), "utf8"),
    ),
  );

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

type Rows = (text: string) => Promise<Record<string, unknown>[]>;

/** Counts of the things an operator checks after a restore, and the migration level, from one snapshot. */
async function databaseFacts(rows: Rows) {
  const [counts] = await rows(
    `select (select count(*) from users)::int as users, (select count(*) from orders)::int as orders,
            (select count(*) from products)::int as products`,
  );
  const [level] = await rows(
    "select count(*)::int as applied, max(created_at)::text as last from drizzle.__drizzle_migrations",
  );
  const last = level?.last == null ? null : Number(level.last);
  return {
    counts: {
      users: Number(counts?.users),
      orders: Number(counts?.orders),
      products: Number(counts?.products),
    },
    migrations: Number(level?.applied ?? 0),
    lastMigration:
      journal.entries.find((entry) => entry.when === last)?.tag ?? (last === null ? null : String(last)),
  };
}

type DatabaseFacts = Awaited<ReturnType<typeof databaseFacts>>;

const handleRows =
  (handle: DatabaseHandle): Rows =>
  async (text) =>
    ((await handle.db.execute(sql.raw(text))) as unknown as { rows: Record<string, unknown>[] }).rows;

/**
 * The PostgreSQL tools read the connection from the environment, not the command line, so the password
 * never shows in the process list.
 */
function libpqEnv(url: string): NodeJS.ProcessEnv {
  const parsed = new URL(url);
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith("PG")) delete env[key];
  env.PGHOST = decodeURIComponent(parsed.hostname) || "localhost";
  if (parsed.port) env.PGPORT = parsed.port;
  if (parsed.username) env.PGUSER = decodeURIComponent(parsed.username);
  if (parsed.password) env.PGPASSWORD = decodeURIComponent(parsed.password);
  env.PGDATABASE = decodeURIComponent(parsed.pathname.slice(1)) || "postgres";
  const host = parsed.searchParams.get("host");
  if (host) env.PGHOST = host;
  const sslmode = parsed.searchParams.get("sslmode");
  if (sslmode) env.PGSSLMODE = sslmode;
  return env;
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4000);
    });
    child.on("error", (error: NodeJS.ErrnoException) =>
      reject(
        new BackupError(
          error.code === "ENOENT"
            ? `${command} was not found. Install the PostgreSQL client tools (Debian: apt-get install postgresql-client), of the server's major version or newer.`
            : `${command} could not start: ${error.message}`,
        ),
      ),
    );
    child.on("close", (code) =>
      code === 0 ? resolve() : reject(new BackupError(`${command} failed (exit ${code}):\n${stderr.trim()}`)),
    );
  });
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Writes one archive: every upload under `uploads/<key>`, the database dump, and last `manifest.json`
 * with the counts and a sha256 of every entry. The file appears under its name only once complete.
 */
export async function createBackup(options: {
  target: BackupTarget;
  storage: FileStorage;
  file: string;
}): Promise<BackupManifest> {
  const file = path.resolve(options.file);
  if (existsSync(file)) throw new BackupError(`${file} already exists; choose another name.`);
  const partial = `${file}.partial-${randomBytes(4).toString("hex")}`;
  const release =
    options.target.kind === "pglite" ? await lockDataDir(options.target.dataDir, "backup") : async () => {};
  let scratch: string | null = null;
  try {
    scratch = await mkdtemp(path.join(os.tmpdir(), "stackbay-backup-"));
    const dumpFile = path.join(scratch, "dump");
    const manifest = await writeArchive(partial, async (archive) => {
      const facts =
        options.target.kind === "postgres"
          ? await dumpPostgres(options.target.url, dumpFile)
          : await dumpPglite(options.target.dataDir, dumpFile);
      const entry = DATABASE_ENTRY[options.target.kind];
      const dump = await archive.addFile(entry, dumpFile);
      await rm(dumpFile);

      // After the database: a file uploaded meanwhile is only an extra file, never a missing one.
      const uploads: BackupManifest["uploads"] = [];
      for await (const key of options.storage.list()) {
        const digest = await archive.add(`${UPLOADS_PREFIX}${key}`, await options.storage.get(key));
        uploads.push({ key, ...digest });
      }
      const manifest: BackupManifest = {
        format: "stackbay-backup",
        version: 1,
        createdAt: new Date().toISOString(),
        database: {
          kind: options.target.kind,
          migrations: facts.migrations,
          lastMigration: facts.lastMigration,
          entry,
          ...dump,
        },
        counts: { ...facts.counts, uploads: uploads.length },
        uploads,
      };
      await archive.add(MANIFEST, Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`));
      return manifest;
    });
    await rename(partial, file);
    return manifest;
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  } finally {
    if (scratch) await rm(scratch, { recursive: true, force: true });
    await release();
  }
}

/**
 * pg_dump runs in a snapshot exported by a transaction that also counts the rows, so the counts are those
 * of the dump even while the app keeps writing. Plain SQL, without owners or grants, restores into a
 * database of any name and owner with psql in one transaction.
 */
async function dumpPostgres(url: string, dumpFile: string) {
  return withClient(url, async (client) => {
    await client.query("begin isolation level repeatable read read only");
    try {
      const { rows } = await client.query<{ snapshot: string }>("select pg_export_snapshot() as snapshot");
      const facts = await databaseFacts(async (text) => (await client.query(text)).rows);
      await run(
        "pg_dump",
        [
          `--snapshot=${rows[0]?.snapshot}`,
          "--format=plain",
          "--compress=6",
          "--no-owner",
          "--no-privileges",
          `--file=${dumpFile}`,
        ],
        libpqEnv(url),
      );
      return facts;
    } finally {
      await client.query("commit");
    }
  });
}

/** The data directory as PGlite's own tar, taken while nothing else has it open (DATA_DIR is locked). */
async function dumpPglite(dataDir: string, dumpFile: string) {
  if (!(await hasPgliteData(dataDir)))
    throw new BackupError(`There is no embedded database in ${path.resolve(dataDir, "db")} to back up.`);
  const handle = await openDatabase({ dataDir });
  try {
    const facts = await databaseFacts(handleRows(handle));
    const dump = await (handle.dump as () => Promise<Blob>)();
    const out = await open(dumpFile, "wx");
    await out.writeFile(await gzipAsync(Buffer.from(await dump.arrayBuffer())));
    await out.close();
    return facts;
  } finally {
    await handle.close();
  }
}

async function hasPgliteData(dataDir: string): Promise<boolean> {
  try {
    return (await readdir(path.resolve(dataDir, "db"))).length > 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
}

/** Schemas PostgreSQL owns; anything else in the target database is data (or at least tables) of someone. */
const SYSTEM_SCHEMAS = "('pg_catalog', 'information_schema', 'pg_toast')";

async function bytesOf(body: AsyncIterable<Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** Reads and checks the whole archive before anything is touched: a damaged copy changes nothing. */
export async function readBackup(file: string): Promise<BackupManifest> {
  const digests = new Map<string, EntryDigest>();
  const manifestChunks: Buffer[] = [];
  try {
    await readArchive(path.resolve(file), async (entry) => {
      const hash = createHash("sha256");
      let size = 0;
      for await (const chunk of entry.body) {
        hash.update(chunk);
        size += chunk.length;
        if (entry.name === MANIFEST) manifestChunks.push(chunk);
      }
      digests.set(entry.name, { size, sha256: hash.digest("hex") });
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new BackupError(`${file} does not exist.`);
    if (error instanceof ArchiveError)
      throw new BackupError(`${file} is not a usable backup: ${error.message} Nothing was changed.`);
    throw error;
  }
  if (!digests.has(MANIFEST))
    throw new BackupError(
      `${file} is not a complete Stackbay backup: it has no ${MANIFEST} (written last, so the copy may be truncated). Nothing was changed.`,
    );
  let manifest: BackupManifest;
  try {
    manifest = manifestSchema.parse(JSON.parse(Buffer.concat(manifestChunks).toString("utf8")));
  } catch {
    throw new BackupError(`${file} has a damaged or unknown ${MANIFEST}. Nothing was changed.`);
  }
  assertRestorable(file, manifest, [...digests.keys()]);
  const expected = [
    { name: manifest.database.entry, size: manifest.database.size, sha256: manifest.database.sha256 },
    ...manifest.uploads.map((u) => ({ name: `${UPLOADS_PREFIX}${u.key}`, size: u.size, sha256: u.sha256 })),
  ];
  for (const item of expected) {
    const digest = digests.get(item.name);
    if (!digest || digest.size !== item.size || digest.sha256 !== item.sha256)
      throw new BackupError(
        `${file} is damaged: ${item.name} is ${digest ? "corrupt" : "missing"}. Nothing was changed.`,
      );
  }
  return manifest;
}

/**
 * What the restore would otherwise find out only after the database was replaced: every upload key is
 * one Stackbay makes (a key such as `../x` would be written outside the uploads folder, and storage
 * refuses it), listed once, counted as the manifest says, and the database dump is where `createBackup`
 * writes it, ahead of every upload.
 */
function assertRestorable(file: string, manifest: BackupManifest, order: string[]) {
  const refuse = (why: string) => {
    throw new BackupError(
      `${file} ${why}: it was not written by npm run backup, or was altered since. Nothing was changed.`,
    );
  };
  const unsafe = manifest.uploads.map((u) => u.key).filter((key) => !isSafeKey(key));
  if (unsafe.length > 0)
    refuse(
      `lists ${unsafe.length === 1 ? "an upload under a key" : `${unsafe.length} uploads under keys`} Stackbay never makes (${unsafe
        .slice(0, 3)
        .map((key) => JSON.stringify(key))
        .join(", ")}${unsafe.length > 3 ? ", …" : ""})`,
    );
  if (new Set(manifest.uploads.map((u) => u.key)).size !== manifest.uploads.length)
    refuse("lists an upload twice");
  if (manifest.counts.uploads !== manifest.uploads.length)
    refuse(`counts ${manifest.counts.uploads} uploads but lists ${manifest.uploads.length}`);
  if (manifest.database.entry !== DATABASE_ENTRY[manifest.database.kind])
    refuse(`names ${manifest.database.entry} as its database dump`);
  const dumpAt = order.indexOf(manifest.database.entry);
  const firstUpload = order.findIndex((name) => name.startsWith(UPLOADS_PREFIX));
  if (firstUpload !== -1 && dumpAt > firstUpload) refuse("holds uploads before its database dump");
}

/**
 * Restores into an empty setup (or, with `force`, replaces what is there): the database, then every
 * upload, then checks the counts against the manifest.
 */
export async function restoreBackup(options: {
  target: BackupTarget;
  storage: FileStorage;
  file: string;
  force?: boolean;
}): Promise<BackupManifest> {
  const { target, storage } = options;
  const manifest = await readBackup(options.file);
  let release = async () => {};
  try {
    if (target.kind === "pglite") release = await lockDataDir(target.dataDir, "restore");
    if (manifest.database.kind !== target.kind) {
      const names = {
        pglite: "the embedded database (PGlite, DATA_DIR)",
        postgres: "PostgreSQL (DATABASE_URL)",
      };
      throw new BackupError(
        `This backup is of ${names[manifest.database.kind]} and cannot be restored into ${names[target.kind]}. ` +
          `Restore it into the same kind of setup${manifest.database.kind === "postgres" ? " (set DATABASE_URL)" : " (unset DATABASE_URL)"}.`,
      );
    }
    if (manifest.database.migrations > journal.entries.length)
      throw new BackupError(
        `This backup was made by a newer version of Stackbay (migration ${manifest.database.lastMigration}); update the app before restoring it.`,
      );

    const occupied: string[] = [];
    if (target.kind === "pglite" ? await hasPgliteData(target.dataDir) : await postgresHasTables(target.url))
      occupied.push("the database");
    const existingKeys: string[] = [];
    for await (const key of storage.list()) existingKeys.push(key);
    if (existingKeys.length > 0) occupied.push(`the uploads (${existingKeys.length} files)`);
    if (occupied.length > 0 && !options.force)
      throw new BackupError(
        `Refusing to restore: ${occupied.join(" and ")} already ${occupied.length > 1 ? "have" : "has"} data. ` +
          "Restore into an empty setup, or pass --force to replace what is there.",
      );

    const uploadKeys = new Map(manifest.uploads.map((u) => [`${UPLOADS_PREFIX}${u.key}`, u.key]));
    let restored: DatabaseFacts | undefined;
    // One more pass over the archive, in its order: the database first (createBackup writes it first),
    // then the uploads, which replace the old ones only once the database is back.
    await readArchive(path.resolve(options.file), async (entry) => {
      if (entry.name === manifest.database.entry) {
        restored =
          target.kind === "pglite"
            ? await restorePglite(target.dataDir, entry.body)
            : await restorePostgres(target.url, entry.body);
        for (const key of existingKeys) await storage.remove(key);
        return;
      }
      const key = uploadKeys.get(entry.name);
      if (key === undefined) return;
      if (!restored) throw new BackupError(`The backup holds ${entry.name} before its database dump.`);
      await storage.put(key, await bytesOf(entry.body), contentTypeOf(key));
    });
    if (!restored) throw new BackupError("The backup has no database dump.");
    const { counts: restoredCounts, migrations } = restored;

    const restoredKeys = new Set<string>();
    for await (const key of storage.list()) restoredKeys.add(key);
    const missing = manifest.uploads.filter((u) => !restoredKeys.has(u.key));
    const problems = [
      ...(["users", "orders", "products"] as const)
        .filter((name) => restoredCounts[name] !== manifest.counts[name])
        .map((name) => `${name}: ${restoredCounts[name]} restored, ${manifest.counts[name]} in the backup`),
      ...(migrations !== manifest.database.migrations
        ? [`migrations: ${migrations} restored, ${manifest.database.migrations} in the backup`]
        : []),
      ...(restoredKeys.size !== manifest.counts.uploads || missing.length > 0
        ? [`uploads: ${restoredKeys.size} stored, ${manifest.counts.uploads} in the backup`]
        : []),
    ];
    if (problems.length > 0)
      throw new BackupError(`The restore does not match the backup's manifest: ${problems.join("; ")}.`);
    return manifest;
  } finally {
    await release();
  }
}

/** The old database is kept aside until the new one opened; a failure puts it back. */
async function restorePglite(dataDir: string, dump: AsyncIterable<Buffer>): Promise<DatabaseFacts> {
  const dbDir = path.resolve(dataDir, "db");
  const aside = `${dbDir}.replaced-${Date.now()}`;
  const hadData = await hasPgliteData(dataDir);
  if (hadData) await rename(dbDir, aside);
  else await rm(dbDir, { recursive: true, force: true });
  let facts: DatabaseFacts;
  try {
    // PGlite loads its data directory from one Blob, so this dump is held in memory whole.
    const snapshot = new Blob([new Uint8Array(await gunzipAsync(await bytesOf(dump)))]);
    const handle = await openDatabase({ dataDir, snapshot });
    try {
      facts = await databaseFacts(handleRows(handle));
    } finally {
      await handle.close();
    }
  } catch (error) {
    await rm(dbDir, { recursive: true, force: true });
    if (hadData) await rename(aside, dbDir);
    throw error;
  }
  if (hadData) await rm(aside, { recursive: true, force: true });
  return facts;
}

async function restorePostgres(url: string, dump: AsyncIterable<Buffer>): Promise<DatabaseFacts> {
  const scratch = await mkdtemp(path.join(os.tmpdir(), "stackbay-restore-"));
  try {
    const dumpFile = path.join(scratch, "dump.sql");
    await pipeline(dump, createGunzip(), createWriteStream(dumpFile, { flags: "wx" }));
    const wipeFile = path.join(scratch, "wipe.sql");
    const wipe = await open(wipeFile, "wx");
    await wipe.writeFile(await wipeSql(url));
    await wipe.close();
    // One transaction for the wipe and the whole dump: a failure leaves the database as it was.
    await run(
      "psql",
      ["-X", "-q", "-v", "ON_ERROR_STOP=1", "--single-transaction", "-f", wipeFile, "-f", dumpFile],
      libpqEnv(url),
    );
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  return withClient(url, (client) => databaseFacts(async (text) => (await client.query(text)).rows));
}

async function postgresHasTables(url: string): Promise<boolean> {
  return withClient(url, async (client) => {
    const { rows } = await client.query<{ n: number }>(
      `select count(*)::int as n from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where c.relkind in ('r', 'p') and n.nspname not in ${SYSTEM_SCHEMAS} and n.nspname not like 'pg_temp%'`,
    );
    return (rows[0]?.n ?? 0) > 0;
  });
}

/** Drops every schema that is not PostgreSQL's own (with --force, or nothing on an empty database). */
async function wipeSql(url: string): Promise<string> {
  return withClient(url, async (client) => {
    const { rows } = await client.query<{ name: string }>(
      `select nspname as name from pg_namespace
       where nspname not in ${SYSTEM_SCHEMAS} and nspname not like 'pg_temp%' and nspname not like 'pg_toast%'`,
    );
    const drops = rows.map((row) => `drop schema "${row.name.replaceAll('"', '""')}" cascade;`);
    return `${drops.join("\n")}\ncreate schema public;\n`;
  });
}
