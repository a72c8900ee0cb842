import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { openDatabase } from "#server/db/client";
import { seedDemo } from "#server/db/seed/demo";
import { installJobQueue } from "#server/jobs/queue";

/** Where each test file's database starts from: migrated, or migrated and seeded with demo data. */
export type DatabaseTemplates =
  | { kind: "pglite"; migrated: string; seeded: string; uploadsDir: string }
  | { kind: "postgres"; migrated: string; seeded: string; uploadsDir: string };

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
 * dumps that each file loads, on PostgreSQL into two template databases that each file copies with
 * `CREATE DATABASE … TEMPLATE`. The demo pictures are rendered once into a folder files copy.
 */
export default async function setup(project: TestProject) {
  const dir = await mkdtemp(path.join(os.tmpdir(), "stackbay-templates-"));
  const uploadsDir = path.join(dir, "uploads");
  const serverUrl = process.env.DATABASE_URL;

  if (!serverUrl) {
    const database = await openDatabase({ dataDir: null });
    try {
      await database.migrate();
      await installJobQueue(database);
      const migrated = path.join(dir, "migrated.tar");
      await writeFile(migrated, Buffer.from(await (await requireDump(database)).arrayBuffer()));
      await seedDemo(database.db, { uploadsDir });
      const seeded = path.join(dir, "seeded.tar");
      await writeFile(seeded, Buffer.from(await (await requireDump(database)).arrayBuffer()));
      project.provide("databaseTemplates", { kind: "pglite", migrated, seeded, uploadsDir });
    } finally {
      await database.close();
    }
    return () => rm(dir, { recursive: true, force: true });
  }

  const suffix = randomBytes(4).toString("hex");
  const names = { migrated: `stackbay_tpl_migrated_${suffix}`, seeded: `stackbay_tpl_seeded_${suffix}` };
  await onServer(serverUrl, async (client) => {
    for (const name of Object.values(names)) await client.query(`create database ${name}`);
  });
  for (const [which, name] of Object.entries(names)) {
    const database = await openDatabase({ databaseUrl: databaseUrlOf(serverUrl, name), dataDir: null });
    try {
      await database.migrate();
      await installJobQueue(database);
      if (which === "seeded") await seedDemo(database.db, { uploadsDir });
    } finally {
      await database.close();
    }
  }
  project.provide("databaseTemplates", { kind: "postgres", ...names, uploadsDir });
  return async () => {
    await onServer(serverUrl, async (client) => {
      for (const name of Object.values(names))
        await client.query(`drop database if exists ${name} with (force)`);
    });
    await rm(dir, { recursive: true, force: true });
  };
}

async function requireDump(database: Awaited<ReturnType<typeof openDatabase>>): Promise<Blob> {
  if (!database.dump) throw new Error("an embedded database can always be dumped");
  return database.dump();
}
