import { generateKeyPairSync, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { App } from "#server/app";
import { createEmbeddedCluster, hasEmbeddedCluster } from "#server/db/cluster";
import { DataDirInUse, lockDataDir } from "#server/db/data-dir-lock";
import { type Env, EnvError, loadEnv } from "#server/env";
import { compressRemaining, webRoot } from "#server/web/build";

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
 * Outside production a missing LICENSE_SIGNING_KEY is generated once and kept in DATA_DIR, like
 * AUTH_SECRET, so offline licence files stay verifiable across restarts; never in the repo.
 */
async function ensureLicenseSigningKey(env: Env): Promise<string> {
  if (env.LICENSE_SIGNING_KEY) return env.LICENSE_SIGNING_KEY;
  const file = path.resolve(env.DATA_DIR, "license-signing-key.pem");
  if (existsSync(file)) return readFile(file, "utf8");
  const pem = generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  await writeFile(file, pem, { mode: 0o600 });
  return pem;
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

/** When a phase of the start began and ended, in ms since the process started (phases may overlap). */
export type StartPhase = { startMs: number; endMs: number };

async function timed<T>(phases: Record<string, StartPhase>, name: string, work: () => Promise<T>) {
  const startMs = performance.now();
  const result = await work();
  phases[name] = { startMs, endMs: performance.now() };
  return result;
}

const round = (phase: StartPhase) => ({ startMs: Math.round(phase.startMs), endMs: Math.round(phase.endMs) });

export async function startServer(
  env: Env,
  options: { webBuild?: Promise<{ built: boolean } & StartPhase> } = {},
) {
  const phases: Record<string, StartPhase> = {};
  const embedded = !env.DATABASE_URL;
  // A first start of the embedded database, which the demo seed will fill.
  const firstStart = embedded && env.NODE_ENV !== "production" && !hasEmbeddedCluster(env.DATA_DIR);
  await mkdir(path.resolve(env.DATA_DIR, "uploads"), { recursive: true });
  const authSecret = await ensureAuthSecret(env);
  const licenseSigningKey = await ensureLicenseSigningKey(env);
  // The embedded database's files must not be opened by a backup or restore at the same time.
  const releaseDataDir = embedded ? await lockDataDir(env.DATA_DIR, "server") : null;
  // On a first start PostgreSQL's initdb runs in a worker thread from here on, while this thread loads
  // the rest of the server (only what the lock needs was loaded before); then the database opens as on
  // any later start.
  const cluster = embedded
    ? timed(phases, "createCluster", () => createEmbeddedCluster(env.DATA_DIR))
    : Promise.resolve(undefined);
  cluster.catch(() => undefined);
  const seedModule = import("#server/db/seed/demo");
  seedModule.catch(() => undefined);
  if (firstStart) {
    // The demo pictures render on sharp's threads from now on; the seed waits for those it stores.
    const startMs = performance.now();
    void seedModule
      .then(({ renderDemoPictures }) => renderDemoPictures())
      .then(
        () => {
          phases.renderPictures = { startMs, endMs: performance.now() };
        },
        () => undefined,
      );
  }
  const appModule = timed(phases, "loadAppModules", () => import("#server/app"));
  appModule.catch(() => undefined);
  const [{ openDatabase }, { seedDemoIfEmpty }, { configuredStorage }] = await Promise.all([
    import("#server/db/client"),
    seedModule,
    import("#server/storage/configured"),
  ]);
  // PGlite's WebAssembly as the worker compiled it, when it created the cluster: the database opens with
  // it rather than compiling it again.
  const pgliteWasmModule = await cluster;
  const database = await timed(phases, "openDatabase", () =>
    openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR, pgliteWasmModule }),
  );
  const seed: { result: Awaited<ReturnType<typeof seedDemoIfEmpty>> } = { result: null };
  // The demo seed is part of the set-up: nothing listens before the catalogue is complete.
  await timed(phases, "migrateAndSeed", () =>
    database.migrate(async (db) => {
      if (database.kind !== "pglite" || env.NODE_ENV === "production") return;
      seed.result = await timed(phases, "seed", () =>
        seedDemoIfEmpty(db, { storage: configuredStorage(env), webhookSecret: authSecret }),
      );
    }),
  );
  const build = options.webBuild ? await options.webBuild : null;
  if (build?.built) phases.webBuild = build;
  const { buildApp } = await appModule;
  const app = await timed(phases, "buildApp", () =>
    buildApp({
      env: { ...env, AUTH_SECRET: authSecret, LICENSE_SIGNING_KEY: licenseSigningKey },
      database,
      webRoot,
    }),
  );
  if (seed.result) app.log.info(seed.result, "seeded demo data into the empty embedded database");
  await timed(phases, "listen", () => app.listen({ port: env.PORT, host: env.HOST }));
  // Read by bench/cold-start.ts; on any start it tells where the seconds before the first request went.
  app.log.info(
    {
      startup: {
        totalMs: Math.round(performance.now()),
        phases: Object.fromEntries(Object.entries(phases).map(([name, phase]) => [name, round(phase)])),
      },
    },
    "started",
  );
  // What the first page loads was compressed by the build; the rest is compressed now, in the background.
  void compressRemaining(webRoot).then(
    (files) => {
      if (files > 0) app.log.info({ files }, "compressed the web app's remaining assets");
    },
    (error: unknown) => app.log.warn({ err: error }, "could not compress the web app's remaining assets"),
  );

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

export async function main(options: Parameters<typeof startServer>[1] = {}) {
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
    await startServer(env, options);
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
