import { build } from "vite";

/**
 * The web build a first start runs (see `ensureWebBuild`), in a child process of the server: the browser's
 * app into `appRoot`, then the server's renderer of its pages (decision 0020) into `rendererRoot`, as
 * `vite build` and `vite build --ssr <entry>` would, one after the other in this one process. Two `vite`
 * processes side by side each started Node, loaded Vite and bundled vite.config.ts, and their bundlers'
 * threads took turns on the same cores: some 2 s more CPU for the same files.
 */
const [appRoot, rendererRoot, ssrEntry] = process.argv.slice(2);
if (!appRoot || !rendererRoot || !ssrEntry)
  throw new Error("usage: build-app.ts <app out dir> <renderer out dir> <ssr entry>");
const common = { mode: "production", logLevel: "warn" } as const;
await build({ ...common, build: { outDir: appRoot, emptyOutDir: true } });
await build({ ...common, build: { ssr: ssrEntry, outDir: rendererRoot, emptyOutDir: true } });
