import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import preact from "@preact/preset-vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Writes .br and .gz beside every text asset so the server sends them precompressed. */
function precompress(): Plugin {
  let outDir = "";
  return {
    name: "stackbay-precompress",
    apply: "build",
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      // Test builds (see `ensureWebBuild`) trade a few percent of size for seconds of build time.
      const quick = process.env.STACKBAY_QUICK_COMPRESSION === "1";
      const files = await readdir(outDir, { recursive: true });
      for (const file of files) {
        if (!/\.(js|css|html|svg|json|txt|xml)$/.test(file)) continue;
        const full = path.join(outDir, file);
        const content = await readFile(full);
        if (content.length < 1024) continue;
        await writeFile(
          `${full}.br`,
          await brotli(content, { params: { [constants.BROTLI_PARAM_QUALITY]: quick ? 5 : 11 } }),
        );
        await writeFile(`${full}.gz`, await gz(content, { level: quick ? 6 : 9 }));
      }
    },
  };
}

export default defineConfig({
  // Preact renders the React code (decision 0019): its compat layer answers React's API at a tenth of
  // react-dom's size. The preset aliases react and react-dom to it and gives the dev server fast refresh.
  plugins: [preact(), tailwindcss(), precompress()],
  build: {
    outDir: "dist/web",
    emptyOutDir: true,
    sourcemap: false,
    target: "es2022",
    manifest: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              // What every page runs before its first paint, and what changes least: one cached file
              // instead of the handful of small shared chunks automatic splitting leaves for them.
              // Libraries only some screens use (radix dialogs, zod, forms, charts) stay with those screens.
              name: "framework",
              test: /node_modules[\\/](preact|react|react-dom|scheduler|react-router|@tanstack[\\/](query-core|react-query)|tailwind-merge|clsx|class-variance-authority)[\\/]/,
            },
          ],
        },
      },
    },
  },
  server: { port: 3001 },
});
