import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, readdirSync, statSync } from "node:fs";
import { readdir, readFile, rename, writeFile } from "node:fs/promises";
import { setPriority } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";

const root = path.resolve(import.meta.dirname, "../../..");
/** dist/web; WEB_BUILD_DIR moves it, so two test runs in one checkout don't rebuild each other's app. */
export const webRoot = process.env.WEB_BUILD_DIR
  ? path.resolve(root, process.env.WEB_BUILD_DIR)
  : path.join(root, "dist/web");
/** The server's renderer of an app build's pages (decision 0020), built beside it. */
const rendererRoot = (appRoot: string) => `${appRoot}-ssr`;
export const rendererEntry = (appRoot: string) => path.join(rendererRoot(appRoot), "entry-server.js");
const SSR_ENTRY = "src/web/entry-server.tsx";
/** Niceness of the build process (0 normal, 19 lowest): it yields the cores to the start's critical path. */
const BUILD_NICENESS = 10;

function newestMtime(entry: string): number {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(entry).reduce((max, name) => Math.max(max, newestMtime(path.join(entry, name))), 0);
}

/**
 * Builds the web app when there is no build yet or a source file is newer than it. The build runs in a
 * child process (build-app.ts): on a first start the server opens, migrates and seeds its database
 * meanwhile (`startServer` awaits both before it listens).
 */
export async function ensureWebBuild(
  log: (message: string) => void = console.info,
  options: { quickCompression?: boolean } = {},
): Promise<{ built: boolean }> {
  // Both builds must be there, and newer than every source: the older of the two decides.
  const built = Math.min(newestMtime(path.join(webRoot, "index.html")), newestMtime(rendererEntry(webRoot)));
  const sources = ["src/web", "src/domain", "public", "index.html", "vite.config.ts", "package.json"].map(
    (p) => newestMtime(path.join(root, p)),
  );
  if (built > 0 && built >= Math.max(...sources)) return { built: false };
  log(built ? "Web sources changed; rebuilding the app..." : "Building the web app (first start)...");
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    // Vite keeps an inherited NODE_ENV (Vitest sets "test"), which would ship React's development build.
    NODE_ENV: "production",
    STACKBAY_QUICK_COMPRESSION: options.quickCompression ? "1" : undefined,
    // The best compression only for what the first page loads; the server compresses the rest once it
    // listens (`compressRemaining`). A quick test build compresses everything at once, as cheaply.
    STACKBAY_COMPRESS_FIRST_PAINT_ONLY: options.quickCompression ? undefined : "1",
  };
  // The browser's app and the server's renderer of its pages (decision 0020), one after the other in one
  // child process (build-app.ts).
  const child = spawn(
    process.execPath,
    [path.join(import.meta.dirname, "build-app.ts"), webRoot, rendererRoot(webRoot), SSR_ENTRY],
    { cwd: root, env, stdio: ["ignore", "inherit", "inherit"] },
  );
  // The build is not what the first start waits for (the database cluster is): on a
  // machine with few cores it runs at a lower priority, taking what the cluster's worker leaves.
  if (child.pid) setPriority(child.pid, BUILD_NICENESS);
  const end = once(child, "exit") as Promise<[number | null, NodeJS.Signals | null]>;
  // A server that fails to start while the app builds must not leave the build running on its own.
  const stop = () => child.kill();
  process.once("exit", stop);
  try {
    const [code, signal] = await end;
    if (code !== 0)
      throw new Error(`Building the web app failed (vite build ended with ${signal ?? `code ${code}`}).`);
  } catch (error) {
    stop();
    throw error;
  } finally {
    process.removeListener("exit", stop);
  }
  return { built: true };
}

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/**
 * Writes the .br and .gz copies the build left out (see `ensureWebBuild`): text assets of 1 KB or more
 * that have none yet, at brotli quality 10 and gzip level 9 as vite.config.ts's chunks loaded after the
 * first page. Run once the server listens; one file at a time, so the pages and assets it serves
 * meanwhile (read on the same thread pool) do not wait behind it, and each copy is written aside and
 * renamed, so a request never gets half of one. Until its copy exists, a file is sent as it is.
 * Answers how many files it compressed: none on a start whose build was complete.
 */
export async function compressRemaining(appRoot: string = webRoot): Promise<number> {
  if (!existsSync(appRoot)) return 0;
  const files = (await readdir(appRoot, { recursive: true, encoding: "utf8" })).filter(
    (file) =>
      /\.(js|css|html|svg|json|txt|xml)$/.test(file) &&
      !file.startsWith(".vite") &&
      !(existsSync(path.join(appRoot, `${file}.br`)) && existsSync(path.join(appRoot, `${file}.gz`))),
  );
  let compressed = 0;
  for (const file of files) {
    const full = path.join(appRoot, file);
    const content = await readFile(full);
    if (content.length < 1024) continue;
    const copies: [string, Buffer][] = [
      [".br", await brotli(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 10 } })],
      [".gz", await gz(content, { level: 9 })],
    ];
    for (const [extension, data] of copies) {
      const partial = `${full}${extension}.${process.pid}.partial`;
      await writeFile(partial, data);
      await rename(partial, `${full}${extension}`);
    }
    compressed++;
  }
  return compressed;
}
