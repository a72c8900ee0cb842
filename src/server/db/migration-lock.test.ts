import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { type DatabaseHandle, openDatabase, rowsOf, WORD_SIMILARITY_THRESHOLD } from "#server/db/client";
import { databaseUrlOf } from "#server/test/global-setup";

const serverUrl = process.env.DATABASE_URL;

async function onServer(query: string) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await client.query(query);
  } finally {
    await client.end();
  }
}

// Only a PostgreSQL server has several instances starting against one database; PGlite is one process.
describe.skipIf(!serverUrl)("migrations on start, on PostgreSQL", () => {
  let name = "";
  let handles: DatabaseHandle[] = [];
  const open = async () => {
    const handle = await openDatabase({
      databaseUrl: databaseUrlOf(serverUrl as string, name),
      dataDir: null,
    });
    handles.push(handle);
    return handle;
  };

  beforeEach(async () => {
    name = `stackbay_lock_${randomBytes(6).toString("hex")}`;
    await onServer(`create database ${name}`);
  });
  afterEach(async () => {
    await Promise.all(handles.map((h) => h.close()));
    handles = [];
    await onServer(`drop database if exists ${name} with (force)`);
  });

  test("two instances starting at once against a fresh database both succeed, and each migration runs once", async () => {
    const [first, second] = await Promise.all([open(), open()]);
    const ran: string[] = [];
    // Each instance's set-up records when it runs under the lock, to show they took turns.
    const setUp = (who: string) => async () => {
      ran.push(`${who} start`);
      await new Promise((resolve) => setTimeout(resolve, 50));
      ran.push(`${who} end`);
    };
    await Promise.all([first.migrate(setUp("first")), second.migrate(setUp("second"))]);

    const journal = JSON.parse(
      await readFile(new URL("./migrations/meta/_journal.json", import.meta.url), "utf8"),
    ) as { entries: { tag: string }[] };
    const { rows } = await onServerDb(
      name,
      "select count(*)::int as n, count(distinct hash)::int as distinct_n from drizzle.__drizzle_migrations",
    );
    expect(rows[0]).toEqual({ n: journal.entries.length, distinct_n: journal.entries.length });
    expect(ran).toHaveLength(4);
    expect(ran[1]?.endsWith(" end")).toBe(true);
    expect(ran[1]?.split(" ")[0]).toBe(ran[0]?.split(" ")[0]);
  });

  test("a set-up that fails releases the lock, so the next instance migrates", async () => {
    const [first, second] = await Promise.all([open(), open()]);
    await expect(
      first.migrate(async () => {
        throw new Error("the seed failed");
      }),
    ).rejects.toThrow("the seed failed");
    let secondRan = false;
    await second.migrate(async () => {
      secondRan = true;
    });
    expect(secondRan).toBe(true);
    const { rows } = await onServerDb(
      name,
      `select count(*)::int as n from pg_locks where locktype = 'advisory'
       and database = (select oid from pg_database where datname = current_database())`,
    );
    expect(rows[0]).toEqual({ n: 0 });
  });

  test("every connection, public reads' included, has JIT off and the word-similarity threshold set", async () => {
    const handle = await open();
    const settings = sql`select current_setting('jit') as jit,
      current_setting('pg_trgm.word_similarity_threshold') as threshold`;
    const expected = [{ jit: "off", threshold: String(WORD_SIMILARITY_THRESHOLD) }];
    expect(await rowsOf(handle.db, settings)).toEqual(expected);
    const read = await handle.cancellableRead(new AbortController().signal, (db) => rowsOf(db, settings));
    expect(read).toEqual(expected);
  });
});

async function onServerDb(database: string, query: string) {
  const client = new pg.Client({ connectionString: databaseUrlOf(serverUrl as string, database) });
  await client.connect();
  try {
    return await client.query(query);
  } finally {
    await client.end();
  }
}
