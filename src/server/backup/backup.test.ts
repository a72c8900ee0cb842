import { execFile, spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { BackupError, type BackupTarget, createBackup, restoreBackup } from "#server/backup/backup";
import { readArchive, writeArchive } from "#server/backup/tar";
import { type DatabaseHandle, openDatabase } from "#server/db/client";
import { DataDirInUse, LOCK_FILE, lockDataDir } from "#server/db/data-dir-lock";
import { type FileStorage, localStorage } from "#server/storage/storage";
import { queryRows } from "#server/test/app";
import { databaseUrlOf } from "#server/test/global-setup";

/**
 * A setup the commands work on: a database (PGlite in its own DATA_DIR, or a database of its own on CI's
 * PostgreSQL) and the uploads folder, removed by `drop`.
 */
type Setup = {
  target: BackupTarget;
  storage: FileStorage;
  dataDir: string;
  open(): Promise<DatabaseHandle>;
  drop(): Promise<void>;
};

const serverUrl = process.env.DATABASE_URL;

async function onServer(work: (client: pg.Client) => Promise<unknown>) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}

/** A new setup, empty or holding the seeded demo data (38 users, 6 orders, the demo pictures). */
async function makeSetup(kind: "pglite" | "postgres", seeded: boolean): Promise<Setup> {
  const templates = inject("databaseTemplates");
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "stackbay-backup-test-"));
  const storage = localStorage(path.join(dataDir, "uploads"));
  if (seeded) await cp(templates.uploadsDir, path.join(dataDir, "uploads"), { recursive: true });
  if (kind === "pglite") {
    // A seeded setup starts from the demo template on its first opening.
    let snapshot = seeded ? new Blob([await readFile(templates.pglite.seeded)]) : undefined;
    return {
      target: { kind, dataDir },
      storage,
      dataDir,
      open: () => {
        const first = snapshot;
        snapshot = undefined;
        return openDatabase({ dataDir, snapshot: first });
      },
      drop: () => rm(dataDir, { recursive: true, force: true }),
    };
  }
  const name = `backup_${seeded ? "src" : "dst"}_${randomBytes(5).toString("hex")}`;
  await onServer((client) =>
    client.query(`create database ${name}${seeded ? ` template ${templates.postgres?.seeded}` : ""}`),
  );
  const url = databaseUrlOf(serverUrl as string, name);
  return {
    target: { kind, url },
    storage,
    dataDir,
    open: () => openDatabase({ databaseUrl: url, dataDir: null }),
    drop: async () => {
      await onServer((client) => client.query(`drop database if exists ${name} with (force)`));
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** What must come back: the orders, the users, and every product picture the database points at. */
async function contentsOf(setup: Setup, options: { migrate?: boolean } = {}) {
  const handle = await setup.open();
  try {
    // The restored database is one the app can start on: its migrations are all there already.
    if (options.migrate) await handle.migrate();
    const orders = await queryRows(handle.db, sql`select * from orders order by id`);
    const users = await queryRows(handle.db, sql`select id, email, created_at from users order by id`);
    const products = await queryRows<{ id: string; image_url: string | null; images: string[] }>(
      handle.db,
      sql`select id, image_url, images from products order by id`,
    );
    const urls = [...new Set(products.flatMap((p) => [p.image_url, ...p.images]).filter((u) => u !== null))];
    // Each URL the database stores resolves through storage to the bytes it served before.
    const images: Record<string, string> = {};
    for (const url of urls.sort())
      images[url] = (await setup.storage.get(url.replace(/^\/uploads\//, ""))).toString("base64");
    return { orders, users, products, images };
  } finally {
    await handle.close();
  }
}

async function isEmpty(setup: Setup): Promise<boolean> {
  const keys: string[] = [];
  for await (const key of setup.storage.list()) keys.push(key);
  if (keys.length > 0) return false;
  if (setup.target.kind === "pglite")
    return (await readdir(path.join(setup.dataDir, "db")).catch(() => [])).length === 0;
  const handle = await setup.open();
  try {
    const [row] = await queryRows<{ n: number }>(
      handle.db,
      sql`select count(*)::int as n from pg_tables where schemaname not in ('pg_catalog', 'information_schema')`,
    );
    return row?.n === 0;
  } finally {
    await handle.close();
  }
}

// The embedded database always (it is what `npm start` backs up); PostgreSQL too when there is a server.
const kinds = serverUrl ? (["pglite", "postgres"] as const) : (["pglite"] as const);

describe.each(kinds)("backup and restore on %s", (kind) => {
  let scratch: string;
  let archive: string;
  let before: Awaited<ReturnType<typeof contentsOf>>;
  let uploadCount: number;
  const setups: Setup[] = [];
  const setup = async (seeded: boolean) => {
    const made = await makeSetup(kind, seeded);
    setups.push(made);
    return made;
  };

  beforeAll(async () => {
    scratch = await mkdtemp(path.join(os.tmpdir(), "stackbay-backup-file-"));
    archive = path.join(scratch, "backup.tar");
    const source = await setup(true);
    before = await contentsOf(source);
    const manifest = await createBackup({ target: source.target, storage: source.storage, file: archive });
    expect(manifest.counts).toEqual({
      users: before.users.length,
      orders: before.orders.length,
      products: before.products.length,
      uploads: (
        await readdir(path.join(source.dataDir, "uploads"), { recursive: true, withFileTypes: true })
      ).filter((entry) => entry.isFile()).length,
    });
    uploadCount = manifest.counts.uploads;
    // The source is wiped: everything below comes from the archive alone.
    await source.drop();
  });

  afterAll(async () => {
    for (const made of setups) await made.drop();
    await rm(scratch, { recursive: true, force: true });
  });

  test("a restore into an empty setup brings back the same orders, users and images", async () => {
    expect(before.orders.length).toBeGreaterThan(0);
    expect(Object.keys(before.images).length).toBeGreaterThan(0);
    const target = await setup(false);
    await restoreBackup({ target: target.target, storage: target.storage, file: archive });
    expect(await contentsOf(target, { migrate: true })).toEqual(before);

    // Restoring again over it is refused before anything is touched, unless --force (which checks the
    // restored counts against the manifest itself).
    await expect(
      restoreBackup({ target: target.target, storage: target.storage, file: archive }),
    ).rejects.toThrow(
      `Refusing to restore: the database and the uploads (${uploadCount} files) already have data. Restore into an empty setup, or pass --force to replace what is there.`,
    );
    const forced = await restoreBackup({
      target: target.target,
      storage: target.storage,
      file: archive,
      force: true,
    });
    expect(forced.counts.orders).toBe(before.orders.length);
  });

  test("the archive is a plain tar file that tar lists", async () => {
    const { stdout } = await promisify(execFile)("tar", ["-tf", archive]);
    const names = stdout.trim().split("\n");
    expect(names).toHaveLength(uploadCount + 2);
    expect(names[0]).toMatch(/^database\//);
    expect(names.at(-1)).toBe("manifest.json");
    expect(names.filter((name) => name.startsWith("uploads/"))).toHaveLength(uploadCount);
  });

  test("a truncated or corrupt archive is refused with a clear message and changes nothing", async () => {
    const truncated = path.join(scratch, "truncated.tar");
    const whole = await readFile(archive);
    await writeFile(truncated, whole.subarray(0, Math.floor(whole.length / 2)));

    // One byte of one picture flipped: the tar is intact, the picture's checksum is not.
    const corrupt = path.join(scratch, "corrupt.tar");
    const pictures: { name: string; bytes: Buffer }[] = [];
    await readArchive(archive, async (entry) => {
      if (!entry.name.startsWith("uploads/products/")) return;
      const chunks: Buffer[] = [];
      for await (const chunk of entry.body) chunks.push(chunk);
      pictures.push({ name: entry.name, bytes: Buffer.concat(chunks) });
    });
    // A picture whose bytes occur once in the archive, so the flipped byte is surely its own.
    const picture = pictures.find((p) => whole.indexOf(p.bytes) === whole.lastIndexOf(p.bytes));
    if (!picture) throw new Error("the demo data has product pictures");
    const flipped = Buffer.from(whole);
    const at = flipped.indexOf(picture.bytes) + 10;
    flipped[at] = (flipped[at] as number) ^ 0xff;
    await writeFile(corrupt, flipped);

    // Cut exactly between the manifest and the end-of-archive marker: every entry is whole, the end is not.
    const unended = path.join(scratch, "unended.tar");
    await writeFile(unended, whole.subarray(0, whole.length - 1024));

    const target = await setup(false);
    const restore = (from: string) =>
      restoreBackup({ target: target.target, storage: target.storage, file: from });
    await expect(restore(truncated)).rejects.toThrow(
      `${truncated} is not a usable backup: The archive ends in the middle (truncated). Nothing was changed.`,
    );
    await expect(restore(unended)).rejects.toThrow(
      `${unended} is not a usable backup: The archive ends in the middle (truncated). Nothing was changed.`,
    );
    await expect(restore(corrupt)).rejects.toThrow(
      `${corrupt} is damaged: ${picture.name} is corrupt. Nothing was changed.`,
    );
    expect(await isEmpty(target)).toBe(true);
  });

  test("an archive whose manifest names an unsafe upload key is refused before anything is touched", async () => {
    // A well-formed archive, checksums and all, with one upload that would be written outside the folder.
    const entries: { name: string; bytes: Buffer }[] = [];
    await readArchive(archive, async (entry) => {
      const chunks: Buffer[] = [];
      for await (const chunk of entry.body) chunks.push(chunk);
      entries.push({ name: entry.name, bytes: Buffer.concat(chunks) });
    });
    const manifest = JSON.parse(entries.find((e) => e.name === "manifest.json")?.bytes.toString() ?? "{}");
    const evil = Buffer.from("not a picture");
    const key = "../../escaped.webp";
    manifest.uploads.push({
      key,
      size: evil.length,
      sha256: createHash("sha256").update(evil).digest("hex"),
    });
    manifest.counts.uploads += 1;
    const altered = path.join(scratch, "unsafe-key.tar");
    await writeArchive(altered, async (out) => {
      for (const entry of entries) if (entry.name !== "manifest.json") await out.add(entry.name, entry.bytes);
      await out.add(`uploads/${key}`, evil);
      await out.add("manifest.json", Buffer.from(JSON.stringify(manifest)));
    });

    const target = await setup(false);
    const restoring = restoreBackup({ target: target.target, storage: target.storage, file: altered });
    await expect(restoring).rejects.toThrow(BackupError);
    await expect(restoring).rejects.toThrow(
      `${altered} lists an upload under a key Stackbay never makes ("${key}"): it was not written by npm run backup, or was altered since. Nothing was changed.`,
    );
    expect(await isEmpty(target)).toBe(true);
  });

  test.runIf(kind === "pglite")(
    "the embedded database is not copied while a server has DATA_DIR open",
    async () => {
      const target = await setup(false);
      // Another live process holding DATA_DIR, as `npm start` would.
      const server = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
      try {
        await writeFile(
          path.join(target.dataDir, LOCK_FILE),
          JSON.stringify({
            holder: "server",
            pid: server.pid,
            host: os.hostname(),
            since: "2026-01-01T00:00:00Z",
          }),
        );
        const file = path.join(scratch, "while-running.tar");
        await expect(createBackup({ target: target.target, storage: target.storage, file })).rejects.toThrow(
          DataDirInUse,
        );
        await expect(
          restoreBackup({ target: target.target, storage: target.storage, file: archive }),
        ).rejects.toThrow(`is in use by the server (process ${server.pid}`);
        expect(await isEmpty(target)).toBe(true);
        await expect(readFile(file)).rejects.toThrow("ENOENT");
      } finally {
        server.kill();
      }
    },
  );
});

test("the server does not start during a backup, and a lock left by a process that is gone holds nothing", async () => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "stackbay-lock-test-"));
  const other = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
  const lock = (holder: string) =>
    writeFile(
      path.join(dataDir, LOCK_FILE),
      JSON.stringify({ holder, pid: other.pid, host: os.hostname(), since: "2026-01-01T00:00:00Z" }),
    );
  try {
    await lock("backup");
    await expect(lockDataDir(dataDir, "server")).rejects.toThrow(
      `is in use by a backup (process ${other.pid}`,
    );
    // A server never waits for a server's lock: it may be its own, left by a crash in a replaced container.
    await lock("server");
    await expect(lockDataDir(dataDir, "backup")).rejects.toThrow(DataDirInUse);
    await (await lockDataDir(dataDir, "server"))();
    await lock("backup");
    other.kill();
    await new Promise((resolve) => other.once("exit", resolve));
    await (await lockDataDir(dataDir, "server"))();
  } finally {
    other.kill();
    await rm(dataDir, { recursive: true, force: true });
  }
});
