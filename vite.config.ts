import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/**
 * Writes .br and .gz beside every text asset so the server sends them precompressed. Brotli's best quality
 * (11) is kept for what every first page loads (the entry, its static imports and their CSS); chunks loaded
 * later (charts, the editor, admin screens) get quality 10, some 2% larger for a third of the time (11
 * spent seconds on the charts chunk alone, on every first start). The server's own builds
 * (`ensureWebBuild`) compress only what the first page loads and leave the rest to the server, which
 * compresses it once it listens (`compressRemaining`): the first start does not wait for it.
 */
function precompress(): Plugin {
  let outDir = "";
  const firstPaint = new Set<string>(["index.html"]);
  return {
    name: "stackbay-precompress",
    apply: "build",
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    writeBundle(_options, bundle) {
      const visit = (fileName: string) => {
        const chunk = bundle[fileName];
        if (chunk?.type !== "chunk" || firstPaint.has(fileName)) return;
        firstPaint.add(fileName);
        for (const css of chunk.viteMetadata?.importedCss ?? []) firstPaint.add(css);
        for (const imported of chunk.imports) visit(imported);
      };
      for (const chunk of Object.values(bundle))
        if (chunk.type === "chunk" && chunk.isEntry) visit(chunk.fileName);
    },
    async closeBundle() {
      // Test builds (see `ensureWebBuild`) trade a few percent of size for seconds of build time.
      const quick = process.env.STACKBAY_QUICK_COMPRESSION === "1";
      const firstPaintOnly = process.env.STACKBAY_COMPRESS_FIRST_PAINT_ONLY === "1";
      const files = (await readdir(outDir, { recursive: true })).filter(
        // .vite/ holds the manifest, which is read from disk and never served.
        (file) =>
          /\.(js|css|html|svg|json|txt|xml)$/.test(file) &&
          !file.startsWith(".vite") &&
          (!firstPaintOnly || firstPaint.has(file)),
      );
      // All at once: zlib compresses on libuv's thread pool, so every core works on a file. One after
      // the other, brotli at quality 11 was most of a first start's build.
      await Promise.all(
        files.map(async (file) => {
          const full = path.join(outDir, file);
          const content = await readFile(full);
          if (content.length < 1024) return;
          const [br, gzipped] = await Promise.all([
            brotli(content, {
              params: { [constants.BROTLI_PARAM_QUALITY]: quick ? 5 : firstPaint.has(file) ? 11 : 10 },
            }),
            gz(content, { level: quick ? 6 : 9 }),
          ]);
          await Promise.all([writeFile(`${full}.br`, br), writeFile(`${full}.gz`, gzipped)]);
        }),
      );
    },
  };
}

/**
 * The chunks `boot` imports statically, which every page has loaded before any screen's code is imported.
 * Found when the bundle is written, before Vite writes the screens' preload lists (its own
 * `generateBundle`), which then leave them out.
 */
const loadedWithBoot = new Set<string>();
function findBootImports(): Plugin {
  return {
    name: "stackbay-boot-imports",
    apply: "build",
    generateBundle: {
      order: "pre",
      handler(_options, bundle) {
        loadedWithBoot.clear();
        const visit = (fileName: string) => {
          const chunk = bundle[fileName];
          if (chunk?.type !== "chunk" || loadedWithBoot.has(fileName)) return;
          loadedWithBoot.add(fileName);
          for (const imported of chunk.imports) visit(imported);
        };
        for (const chunk of Object.values(bundle))
          if (chunk.type === "chunk" && chunk.facadeModuleId?.endsWith("src/web/boot.tsx"))
            visit(chunk.fileName);
      },
    },
  };
}

export default defineConfig(({ isSsrBuild }) => ({
  // React 19 renders the app in the browser and on the server (decision 0021); the plugin gives the dev
  // server fast refresh. The server's renderer (`--ssr src/web/entry-server.tsx`, decision 0020) is the
  // same code for Node.
  plugins: [react(), tailwindcss(), ...(isSsrBuild ? [] : [precompress(), findBootImports()])],
  // Bundled whole: `dist/web-ssr` runs without the web's libraries resolved by Node (they are the
  // build's, and some import CSS).
  ssr: { noExternal: true },
  publicDir: isSsrBuild ? false : "public",
  build: {
    outDir: "dist/web",
    emptyOutDir: true,
    sourcemap: false,
    target: isSsrBuild ? "node20" : "es2022",
    manifest: !isSsrBuild,
    modulePreload: {
      // A screen's import preloads the chunks it needs, except those `boot` has imported before any screen
      // is: naming them again in each of the ~50 screens' preload lists cost every page's JavaScript
      // 0.5 KB gzip (decision 0025). The entry's import of `boot` itself keeps its whole list.
      resolveDependencies: (_file, deps, { hostId }) =>
        /(^|\/)index-[\w-]+\.js$/.test(hostId) ? deps : deps.filter((dep) => !loadedWithBoot.has(dep)),
    },
    rolldownOptions: {
      output: {
        // A shared chunk's file is named by its hash alone: rolldown names it after one of the modules
        // it holds (`notification-bell-…` holds much else), and every page's entry and `boot` list such
        // files in their preload lists and imports, which cost the home route's budget (decision 0025).
        // A chunk of its own module (`boot`, a screen) keeps its name, and so do React's and the
        // framework's groups: the budget tells React's runtime by its name.
        chunkFileNames: (chunk) =>
          chunk.facadeModuleId || chunk.name === "react" || chunk.name === "framework"
            ? "assets/[name]-[hash].js"
            : "assets/[hash].js",
        codeSplitting: {
          // Rolldown's automatic splitting left the home route some 40 common chunks of a few hundred bytes
          // (an icon, a store, an API call), each one more `<link rel=modulepreload>` the entry adds one by
          // one and one more request. Common chunks under 4 KB of source are copied into the chunks that
          // read them instead; rolldown's runtime keeps one instance of each module (one state, one
          // evaluation), and no route loads code it would not have loaded otherwise. Chunks holding styles
          // stay files (Vite's CSS plugin would emit their CSS once for every copy). Decision 0024.
          ...(isSsrBuild
            ? {}
            : {
                experimentalInlineCommonChunks: {
                  maxSize: 4000,
                  exclude: /\.(css|scss|sass|less|styl|stylus|pcss|postcss|sss)(\?|$)/,
                },
              }),
          groups: [
            {
              // React itself (react-dom's client and its scheduler): the largest file, and the one that
              // changes only with React's version, so it stays cached across our releases.
              name: "react",
              test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/,
            },
            {
              // What every page runs before its first paint, and what changes least: one cached file
              // instead of the handful of small shared chunks automatic splitting leaves for them.
              // Libraries only some screens use (radix dialogs, zod, forms, charts) stay with those screens.
              name: "framework",
              // (TanStack Query's observer of several queries at once serves one form, not every page.)
              test: /node_modules[\\/]((react-router|clsx|class-variance-authority)[\\/]|@tanstack[\\/](query-core|react-query)[\\/](?!.*(queriesObserver|useQueries)))/,
            },
          ],
        },
      },
    },
  },
  server: { port: 3001 },
}));
