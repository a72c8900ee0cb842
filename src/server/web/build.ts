import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../../..");
/** dist/web; WEB_BUILD_DIR moves it, so two test runs in one checkout don't rebuild each other's app. */
export const webRoot = process.env.WEB_BUILD_DIR
  ? path.resolve(root, process.env.WEB_BUILD_DIR)
  : path.join(root, "dist/web");

function newestMtime(entry: string): number {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(entry).reduce((max, name) => Math.max(max, newestMtime(path.join(entry, name))), 0);
}

/** Builds the web app when there is no build yet or a source file is newer than it. */
export async function ensureWebBuild(
  log: (message: string) => void = console.info,
  options: { quickCompression?: boolean } = {},
) {
  const built = newestMtime(path.join(webRoot, "index.html"));
  const sources = ["src/web", "src/domain", "public", "index.html", "vite.config.ts", "package.json"].map(
    (p) => newestMtime(path.join(root, p)),
  );
  if (built > 0 && built >= Math.max(...sources)) return;
  log(built ? "Web sources changed; rebuilding the app..." : "Building the web app (first start)...");
  const { build } = await import("vite");
  // Vite keeps an inherited NODE_ENV (Vitest sets "test"), which would ship React's development build.
  const inherited = process.env.NODE_ENV;
  process.env.NODE_ENV = "production";
  if (options.quickCompression) process.env.STACKBAY_QUICK_COMPRESSION = "1";
  try {
    await build({
      root,
      logLevel: "warn",
      mode: "production",
      build: { outDir: webRoot, emptyOutDir: true },
    });
  } finally {
    delete process.env.STACKBAY_QUICK_COMPRESSION;
    if (inherited === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = inherited;
  }
}
