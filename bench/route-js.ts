import { readFile } from "node:fs/promises";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { webRoot } from "#server/web/build";

type Manifest = Record<
  string,
  { file: string; name?: string; imports?: string[]; dynamicImports?: string[]; isEntry?: boolean }
>;

/** The route modules of the public pages (the ones the server draws, decision 0020). */
export const publicRoutes: [string, string][] = [
  ["home", "src/web/app/routes/home.tsx"],
  ["/products", "src/web/app/routes/products.tsx"],
  ["product page", "src/web/app/routes/product.tsx"],
  ["storefront", "src/web/app/routes/vendor.tsx"],
  ["compare", "src/web/app/routes/compare.tsx"],
  ["content page", "src/web/app/routes/content-page.tsx"],
  ["about", "src/web/app/routes/about.tsx"],
  ["faq", "src/web/app/routes/faq.tsx"],
  ["partner", "src/web/app/routes/partner.tsx"],
  ["developers", "src/web/app/routes/developers.tsx"],
  ["contact", "src/web/app/routes/contact.tsx"],
  ["privacy", "src/web/app/routes/privacy.tsx"],
  ["terms", "src/web/app/routes/terms.tsx"],
];

/** React's own runtime: the `react` chunk of the build (react, react-dom's client, its scheduler). */
const isReact = (file: string) => /^assets\/react-[\w-]+\.js$/.test(file);

/**
 * gzip size of the JS a route needs before it can render: the entry, the app it loads once the page is
 * painted (its dynamic import, decision 0020), the route module and their static imports; React's own
 * runtime apart from the rest (the budget is React plus 60 KB of ours on the home route).
 */
export async function routeJsGzip(routeModule: string) {
  const manifest = JSON.parse(await readFile(path.join(webRoot, ".vite/manifest.json"), "utf8")) as Manifest;
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const [key, chunk] of Object.entries(manifest)) {
    if (!chunk.isEntry) continue;
    visit(key);
    for (const app of chunk.dynamicImports ?? []) visit(app);
  }
  visit(routeModule);
  let react = 0;
  let ours = 0;
  for (const file of files) {
    const size = gzipSync(await readFile(path.join(webRoot, file)), { level: 9 }).length;
    if (isReact(file)) react += size;
    else ours += size;
  }
  return { files: files.size, react, ours, total: react + ours };
}

const kb = (bytes: number) => Number((bytes / 1024).toFixed(1));

/** Each public route's JS, as a table. */
export async function printRouteJs() {
  const rows: Record<string, Record<string, number>> = {};
  for (const [name, module] of publicRoutes) {
    const { files, react, ours, total } = await routeJsGzip(module);
    rows[name] = { "total KB gzip": kb(total), "React KB": kb(react), "ours KB": kb(ours), files };
  }
  console.info(
    "JS each public route loads before it can render (gzip level 9; budget: React + 60 KB ours on home)",
  );
  console.table(rows);
}
