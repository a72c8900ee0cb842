import { readdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";

/**
 * The layer rules of docs/ARCHITECTURE.md ("Boundaries"), checked on every import of `src/`. The
 * compiler would accept a wrong-way import, and the build would only notice once Node or the server
 * code reached the browser bundle; this test names the file and the import instead.
 */

const root = path.resolve(fileURLToPath(new URL("../..", import.meta.url)));
const src = path.join(root, "src");

/** `typeOnly`: an `import type` or `export type`, which the compiler erases, so nothing loads at run time. */
type Import = { file: string; specifier: string; line: number; typeOnly: boolean };

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [full] : [];
  });
}

// Static imports and re-exports with `from` (the clause may hold only names, braces, commas and `*`, so
// a match cannot run across code), side-effect imports, and dynamic imports with a literal path.
const patterns = [
  /(?:^|\n)[ \t]*(?:import|export)\s+(?:type\s+)?[\w$\s{},*]*?\s*from\s*["']([^"']+)["']/g,
  /(?:^|\n)[ \t]*import\s*["']([^"']+)["']/g,
  /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g,
];

function importsOf(file: string, text: string): Import[] {
  const found: Import[] = [];
  for (const pattern of patterns) {
    for (const match of text.matchAll(pattern)) {
      const specifier = match[1] ?? "";
      const at = (match.index ?? 0) + match[0].lastIndexOf(specifier);
      const typeOnly = /^\s*(?:import|export)\s+type\s/.test(match[0]);
      found.push({ file, specifier, line: text.slice(0, at).split("\n").length, typeOnly });
    }
  }
  return found;
}

const relative = (file: string) => path.relative(root, file).split(path.sep).join("/");

/** Where an import lands inside the repository (`src/…` with no extension), or null for a package. */
function target(from: string, specifier: string): string | null {
  if (specifier.startsWith(".")) return relative(path.resolve(path.dirname(from), specifier));
  const alias = /^#(domain|server|web)\/(.*)$/.exec(specifier);
  return alias ? `src/${alias[1]}/${alias[2]}` : null;
}

const nodeBuiltins = new Set(builtinModules);
const packageName = (specifier: string) =>
  specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : (specifier.split("/")[0] ?? "");
/** Packages that only exist on the server (or only in React); domain code runs in both places. */
const platformPackages = new Set([
  "react",
  "react-dom",
  "react-router",
  "fastify",
  "drizzle-orm",
  "pg",
  "@electric-sql/pglite",
  "better-auth",
]);

function domainViolation(imp: Import): string | null {
  const { file, specifier } = imp;
  const isTest = file.endsWith(".test.ts");
  const to = target(file, specifier);
  // contracts.test.ts compares the web fetchers' types with the schemas; a test's type-only import
  // loads nothing and is never bundled, so it cannot drag web code into the shared rules.
  if (isTest && imp.typeOnly && to?.startsWith("src/web/")) return null;
  if (to !== null) return to.startsWith("src/domain/") ? null : `leaves src/domain (${to})`;
  // Tests run only in Node (the unit project), never in a bundle, so they may read files or draw bytes.
  if (specifier.startsWith("node:") || nodeBuiltins.has(specifier))
    return isTest ? null : "a Node API; domain code also runs in the browser";
  const name = packageName(specifier);
  if (platformPackages.has(name) || name.startsWith("@fastify/") || name.startsWith("@tanstack/"))
    return `${name} belongs to the server or the web app, not to the shared rules`;
  return null;
}

function webViolation(imp: Import): string | null {
  const to = target(imp.file, imp.specifier);
  return to?.startsWith("src/server/") ? `the web app must not import server code (${to})` : null;
}

function serverViolation(imp: Import): string | null {
  const to = target(imp.file, imp.specifier);
  return to?.startsWith("src/web/") ? `the server must not import web code (${to})` : null;
}

/** The shared toolkit (`lib/`, `components/ui/`) sits below features and screens and knows neither. */
function toolkitViolation(imp: Import): string | null {
  const to = target(imp.file, imp.specifier) ?? "";
  return /^src\/web\/(app|features|components\/layout)\//.test(to)
    ? `the shared toolkit must not depend on screens, features or the layout (${to})`
    : null;
}

const featureOf = (repoPath: string) => /^src\/web\/features\/([^/]+)\/(.*)$/.exec(repoPath);

/**
 * What a feature exposes to other features: its fetchers and query hooks (`api/<file>`), its
 * components (`components/<file>`) and the modules at its top level (stores and hooks such as
 * `cart/cart-store`, `currency/use-money`). Anything deeper is the feature's own business. Another
 * feature's fetcher is imported by alias, never by a relative path, and a fetcher (`api/*`) depends on
 * other features' fetchers only, never on their components or stores.
 */
function featureViolation(imp: Import): string | null {
  const from = featureOf(relative(imp.file));
  const to = target(imp.file, imp.specifier);
  const into = to ? featureOf(to) : null;
  if (!from || !into || from[1] === into[1]) return null;
  const [, , fromRest = ""] = from;
  const [, other, rest = ""] = into;
  if (imp.specifier.startsWith("."))
    return `imports feature "${other}" by a relative path; use #web/features/${other}/…`;
  const exposed = /^(api|components)\/[^/]+$/.test(rest) || /^[^/]+$/.test(rest);
  if (!exposed)
    return `reaches into feature "${other}" (${rest}), which exposes only api/*, components/* and top-level modules`;
  if (fromRest.startsWith("api/") && !rest.startsWith("api/"))
    return `a fetcher imports feature "${other}"'s ${rest}; fetchers depend on other fetchers only`;
  return null;
}

/**
 * Known exceptions, each with the reason it is tolerated: "file -> specifier". Empty today; an entry
 * here is a debt to pay, not a rule.
 */
const allowed = new Map<string, string>([]);

const files = sourceFiles(src);
const imports = files.flatMap((file) => importsOf(file, readFileSync(file, "utf8")));

function check(scope: (repoPath: string) => boolean, rule: (imp: Import) => string | null): string[] {
  return imports
    .filter((imp) => scope(relative(imp.file)))
    .filter((imp) => !allowed.has(`${relative(imp.file)} -> ${imp.specifier}`))
    .flatMap((imp) => {
      const problem = rule(imp);
      return problem ? [`${relative(imp.file)}:${imp.line} imports "${imp.specifier}": ${problem}`] : [];
    });
}

describe("import boundaries", () => {
  test("the scan sees the code it checks", () => {
    expect(files.length).toBeGreaterThan(100);
    expect(imports.some((imp) => imp.specifier === "#domain/money")).toBe(true);
    // A dynamic import (the route table's lazy screens) and a multi-line static import are found.
    expect(imports.some((imp) => imp.specifier === "#web/app/routes/home")).toBe(true);
    expect(importsOf("x.ts", 'import type { A } from "#web/a";\nimport { b } from "#web/b";')).toEqual([
      { file: "x.ts", specifier: "#web/a", line: 1, typeOnly: true },
      { file: "x.ts", specifier: "#web/b", line: 2, typeOnly: false },
    ]);
    expect(importsOf("x.ts", 'import {\n  a,\n  type B,\n} from "#server/x";\nexport * from "./y";')).toEqual(
      [
        { file: "x.ts", specifier: "#server/x", line: 4, typeOnly: false },
        { file: "x.ts", specifier: "./y", line: 5, typeOnly: false },
      ],
    );
  });

  test("src/domain imports only itself and plain libraries: no server, web, Node, React or database", () => {
    expect(check((p) => p.startsWith("src/domain/"), domainViolation)).toEqual([]);
  });

  test("src/web never imports src/server", () => {
    expect(check((p) => p.startsWith("src/web/"), webViolation)).toEqual([]);
  });

  test("src/server never imports src/web", () => {
    expect(check((p) => p.startsWith("src/server/"), serverViolation)).toEqual([]);
  });

  test("src/web/lib and src/web/components/ui import no screen, feature or layout", () => {
    expect(
      check((p) => p.startsWith("src/web/lib/") || p.startsWith("src/web/components/ui/"), toolkitViolation),
    ).toEqual([]);
  });

  test("a web feature uses only what another feature exposes", () => {
    expect(check((p) => p.startsWith("src/web/features/"), featureViolation)).toEqual([]);
  });

  test("features do not depend on each other in a circle", () => {
    const edges = new Map<string, Set<string>>();
    for (const imp of imports) {
      const from = featureOf(relative(imp.file))?.[1];
      const to = target(imp.file, imp.specifier);
      const into = to ? featureOf(to)?.[1] : undefined;
      if (!from || !into || from === into) continue;
      edges.set(from, (edges.get(from) ?? new Set()).add(into));
    }
    const cycles: string[] = [];
    const visit = (feature: string, trail: string[]) => {
      if (trail.includes(feature)) {
        // One entry per circle, whichever feature the walk entered it by.
        const circle = trail.slice(trail.indexOf(feature));
        const start = circle.indexOf([...circle].sort()[0] ?? feature);
        const rotated = [...circle.slice(start), ...circle.slice(0, start)];
        cycles.push([...rotated, rotated[0]].join(" -> "));
        return;
      }
      for (const next of edges.get(feature) ?? []) visit(next, [...trail, feature]);
    };
    for (const feature of edges.keys()) visit(feature, []);
    expect([...new Set(cycles)]).toEqual([]);
  });
});
