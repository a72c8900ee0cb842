import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { type App, buildApp } from "#server/app";
import { openDatabase } from "#server/db/client";
import { DataDirInUse, lockDataDir } from "#server/db/data-dir-lock";
import { seedDemoIfEmpty } from "#server/db/seed/demo";
import { type Env, EnvError, loadEnv } from "#server/env";
import { webRoot } from "#server/web/build";

/** Outside production a missing AUTH_SECRET is generated once and kept in DATA_DIR, never in the repo. */
async function ensureAuthSecret(env: Env): Promise<string> {
  if (env.AUTH_SECRET) return env.AUTH_SECRET;
  const file = path.resolve(env.DATA_DIR, "auth-secret");
  if (existsSync(file)) return (await readFile(file, "utf8")).trim();
  const secret = randomBytes(32).toString("base64url");
  await writeFile(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

/**
 * Readiness answers 503 at once; the server keeps serving for `graceMs`, while a load balancer notices and
 * stops sending requests, and then closes, letting the requests under way finish.
 */
export async function drainAndClose(app: App, graceMs: number) {
  app.readiness.shuttingDown = true;
  if (graceMs > 0) await new Promise((resolve) => setTimeout(resolve, graceMs));
  await app.close();
}

export async function startServer(env: Env) {
  await mkdir(path.resolve(env.DATA_DIR, "uploads"), { recursive: true });
  const authSecret = await ensureAuthSecret(env);
  // The embedded database's files must not be opened by a backup or restore at the same time.
  const releaseDataDir = env.DATABASE_URL ? null : await lockDataDir(env.DATA_DIR, "server");
  const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
  await database.migrate();
  const app = await buildApp({
    env: { ...env, AUTH_SECRET: authSecret },
    database,
    webRoot,
  });
  if (database.kind === "pglite" && env.NODE_ENV !== "production") {
    const seeded = await seedDemoIfEmpty(database.db, { storage: app.storage });
    if (seeded) app.log.info(seeded, "seeded demo data into the empty embedded database");
  }
  await app.listen({ port: env.PORT, host: env.HOST });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    const grace = (env.SHUTDOWN_GRACE_SECONDS ?? (env.NODE_ENV === "production" ? 5 : 0)) * 1000;
    app.log.info({ signal, graceMs: grace }, "shutting down");
    const timer = setTimeout(() => process.exit(1), grace + 10_000);
    timer.unref();
    await drainAndClose(app, grace);
    await releaseDataDir?.();
    process.exit(0);
  };
  process.once("SIGINT", () => void shutdown("SIGINT"));
  process.once("SIGTERM", () => void shutdown("SIGTERM"));
  return app;
}

export async function main() {
  let env: Env;
  try {
    env = loadEnv();
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  try {
    await startServer(env);
  } catch (error) {
    if (error instanceof DataDirInUse) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  await main();
}
