import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { openDatabase } from "#server/db/client";
import { seedDemo } from "#server/db/seed/demo";
import { installJobQueue } from "#server/jobs/queue";

/**
 * Where each test file's database starts from: migrated, or migrated and seeded with demo data. The
 * embedded database's dumps are always made (the tests of PGlite itself use them whatever DATABASE_URL
 * says); with DATABASE_URL, also two template databases on that server.
 */
export type DatabaseTemplates = {
  pglite: { migrated: string; seeded: string };
  postgres: { migrated: string; seeded: string } | null;
  uploadsDir: string;
};

declare module "vitest" {
  export interface ProvidedContext {
    databaseTemplates: DatabaseTemplates;
  }
}

async function onServer<T>(serverUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export function databaseUrlOf(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.href;
}

/**
 * Migrates and seeds once per run instead of once per test file: on PGlite into two data-directory
 * dumps that each file loads, and with DATABASE_URL also into two template databases on that server that
 * each file copies with `CREATE DATABASE … TEMPLATE`. The demo pictures are rendered once into a folder
 * files copy.
 */
export default async function setup(project: TestProject) {
  const dir = await mkdtemp(path.join(os.tmpdir(), "stackbay-templates-"));
  const uploadsDir = path.join(dir, "uploads");
  const serverUrl = process.env.DATABASE_URL;
  const suffix = randomBytes(4).toString("hex");
  const names = serverUrl
    ? { migrated: `stackbay_tpl_migrated_${suffix}`, seeded: `stackbay_tpl_seeded_${suffix}` }
    : null;
  // Side by side: the embedded database works on this core while the server works in its own processes.
  const [pglite] = await Promise.all([
    embeddedTemplates(dir, uploadsDir),
    serverUrl && names ? serverTemplates(serverUrl, names, dir) : null,
  ]);
  project.provide("databaseTemplates", { pglite, postgres: names, uploadsDir });
  return async () => {
    if (serverUrl && names) {
      await onServer(serverUrl, async (client) => {
        for (const name of Object.values(names))
          await client.query(`drop database if exists ${name} with (force)`);
      });
    }
    await rm(dir, { recursive: true, force: true });
  };
}

/** The embedded database migrated, then seeded, each dumped to a file in `dir`. */
async function embeddedTemplates(dir: string, uploadsDir: string): Promise<DatabaseTemplates["pglite"]> {
  const database = await openDatabase({ dataDir: null });
  try {
    await database.migrate();
    await installJobQueue(database);
    const migrated = path.join(dir, "migrated.tar");
    await writeFile(migrated, Buffer.from(await (await requireDump(database)).arrayBuffer()));
    await seedDemo(database.db, { uploadsDir });
    const seeded = path.join(dir, "seeded.tar");
    await writeFile(seeded, Buffer.from(await (await requireDump(database)).arrayBuffer()));
    return { migrated, seeded };
  } finally {
    await database.close();
  }
}

/** The two template databases on the server, migrated, and migrated and seeded. */
async function serverTemplates(serverUrl: string, names: { migrated: string; seeded: string }, dir: string) {
  await onServer(serverUrl, async (client) => {
    for (const name of Object.values(names)) await client.query(`create database ${name}`);
  });
  for (const [which, name] of Object.entries(names)) {
    const database = await openDatabase({ databaseUrl: databaseUrlOf(serverUrl, name), dataDir: null });
    try {
      await database.migrate();
      await installJobQueue(database);
      // Files copy the embedded seed's pictures (the same demo): this seed's own go to a folder unused.
      if (which === "seeded") await seedDemo(database.db, { uploadsDir: path.join(dir, "server-uploads") });
    } finally {
      await database.close();
    }
  }
}

async function requireDump(database: Awaited<ReturnType<typeof openDatabase>>): Promise<Blob> {
  if (!database.dump) throw new Error("an embedded database can always be dumped");
  return database.dump();
}
