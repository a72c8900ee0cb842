import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";

/**
 * docs/ARCHITECTURE.md, "A server module": `routes.ts` declares routes and calls its service (or, for a
 * module without rules, its repository); `service.ts` holds transactions, audit and rules; only
 * `repository.ts` touches Drizzle and the schema; no runtime import cycle joins two modules. The
 * compiler accepts all of these, so this reads the files instead.
 */
const modules = path.resolve(fileURLToPath(new URL("modules", import.meta.url)));

type Import = { specifier: string; typeOnly: boolean };

/** Comments removed (line and block), so a commented-out import or call counts for nothing. */
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/[^\n]*/g, "$1");

/**
 * Static imports and re-exports, side-effect imports and dynamic imports with a literal path. An
 * import is type-only when written `import type …` or when every name it brings is marked `type`.
 */
function importsOf(text: string): Import[] {
  const source = code(text);
  const found: Import[] = [];
  const staticImport = /(?:^|\n)[ \t]*(import|export)\s+(type\s+)?([\w$\s{},*]*?)\s*from\s*["']([^"']+)["']/g;
  for (const match of source.matchAll(staticImport)) {
    const clause = match[3] ?? "";
    const braces = clause.match(/\{([^}]*)\}/);
    const outside = clause.replace(/\{[^}]*\}/, "").replace(/[\s,]/g, "");
    const names = (braces?.[1] ?? "")
      .split(",")
      .map((name) => name.trim())
      .filter(Boolean);
    const everyNameIsType =
      braces !== null && outside === "" && names.every((name) => name.startsWith("type "));
    found.push({ specifier: match[4] ?? "", typeOnly: match[2] !== undefined || everyNameIsType });
  }
  for (const match of source.matchAll(/(?:^|\n)[ \t]*import\s*["']([^"']+)["']/g)) {
    found.push({ specifier: match[1] ?? "", typeOnly: false });
  }
  for (const match of source.matchAll(/\bimport\s*\(\s*["']([^"']+)["']\s*\)/g)) {
    found.push({ specifier: match[1] ?? "", typeOnly: false });
  }
  return found;
}

const reachesDrizzle = (specifier: string) =>
  specifier === "drizzle-orm" ||
  specifier.startsWith("drizzle-orm/") ||
  specifier.startsWith("#server/db/schema") ||
  /(^|\/)db\/schema(\/|$)/.test(specifier);

/** What a route file must not do: open a transaction, or write the audit trail (`lib/audit.ts`). */
function routeViolations(text: string): string[] {
  const source = code(text);
  const found: string[] = [];
  if (/\.transaction\s*\(/.test(source)) found.push("opens a transaction");
  if (/\brecordAudit\s*\(/.test(source)) found.push("writes audit (recordAudit)");
  for (const { specifier } of importsOf(text)) {
    if (reachesDrizzle(specifier)) found.push(`imports ${specifier}`);
    if (specifier === "#server/lib/audit") found.push("imports the audit writer");
  }
  return found;
}

/** What a module file other than `repository.ts` must not do: reach Drizzle or the schema. */
function drizzleImports(text: string): string[] {
  return importsOf(text)
    .map(({ specifier }) => specifier)
    .filter(reachesDrizzle);
}

const moduleNames = readdirSync(modules, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

const sourceFiles = (moduleName: string) =>
  readdirSync(path.join(modules, moduleName), { recursive: true, encoding: "utf8" })
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
    .map((file) => path.join(modules, moduleName, file));

const routeFiles = moduleNames
  .map((name) => path.join(modules, name, "routes.ts"))
  .filter((file) => existsSync(file));

const notRepositoryFiles = moduleNames
  .flatMap(sourceFiles)
  .filter((file) => path.basename(file) !== "repository.ts");

const server = path.dirname(modules);

/** The file a specifier names: `#server/…` and relative paths; packages and `#domain/…` are not followed. */
function resolve(specifier: string, fromFile: string): string | null {
  let absolute: string;
  if (specifier.startsWith("#server/")) absolute = path.join(server, specifier.slice("#server/".length));
  else if (specifier.startsWith(".")) absolute = path.resolve(path.dirname(fromFile), specifier);
  else return null;
  if (existsSync(`${absolute}.ts`)) return `${absolute}.ts`;
  return /\.tsx?$/.test(absolute) && existsSync(absolute) ? absolute : null;
}

const moduleOf = (file: string) => {
  const relative = path.relative(modules, file);
  return relative.startsWith("..") || path.isAbsolute(relative)
    ? null
    : (relative.split(path.sep)[0] ?? null);
};

/**
 * Module → the modules its files import at run time (value imports; `import type` is erased). An
 * import of a server file outside the modules (`lib/`, `mail/`, …) counts as importing whatever
 * modules that file reaches in turn.
 */
function runtimeGraph(files: Map<string, string[]>, read: (file: string) => string) {
  const reached = new Map<string, Set<string>>();
  const modulesReachedBy = (file: string, visiting: Set<string>): Set<string> => {
    const known = reached.get(file);
    if (known) return known;
    const found = new Set<string>();
    visiting.add(file);
    for (const { specifier, typeOnly } of importsOf(read(file))) {
      if (typeOnly) continue;
      const target = resolve(specifier, file);
      if (!target || visiting.has(target)) continue;
      const targetModule = moduleOf(target);
      if (targetModule) found.add(targetModule);
      else for (const name of modulesReachedBy(target, visiting)) found.add(name);
    }
    visiting.delete(file);
    if (!moduleOf(file)) reached.set(file, found);
    return found;
  };
  const graph = new Map<string, Set<string>>();
  for (const [moduleName, paths] of files) {
    const edges = new Set<string>();
    for (const file of paths) for (const target of modulesReachedBy(file, new Set())) edges.add(target);
    edges.delete(moduleName);
    graph.set(moduleName, edges);
  }
  return graph;
}

/** Every strongly connected group of two or more modules (Tarjan), each as a sorted list. */
function cycles(graph: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  let next = 0;
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(target) ?? 0));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(target) ?? 0));
      }
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop();
        if (member === undefined) break;
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1) groups.push(group.sort());
    }
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return groups;
}

describe("module shape", () => {
  test("there are route files and modules to check", () => {
    expect(routeFiles.length).toBeGreaterThan(10);
    expect(notRepositoryFiles.length).toBeGreaterThan(routeFiles.length);
  });

  test.each(routeFiles.map((file) => [path.relative(modules, file), file]))(
    "%s declares and delegates: no Drizzle, schema, transaction or audit",
    (_name, file) => {
      expect(routeViolations(readFileSync(file, "utf8"))).toEqual([]);
    },
  );

  test.each(notRepositoryFiles.map((file) => [path.relative(modules, file), file]))(
    "%s leaves Drizzle and the schema to repository.ts",
    (_name, file) => {
      expect(drizzleImports(readFileSync(file, "utf8"))).toEqual([]);
    },
  );

  test("no runtime import cycle joins two modules", () => {
    const files = new Map(moduleNames.map((name) => [name, sourceFiles(name)]));
    const graph = runtimeGraph(files, (file) => readFileSync(file, "utf8"));
    expect([...graph.values()].some((edges) => edges.size > 0)).toBe(true);
    expect(cycles(graph)).toEqual([]);
  });
});

describe("the shape checks themselves", () => {
  test("type-only imports are told from value imports", () => {
    expect(
      importsOf(
        [
          'import type { A } from "#server/modules/a/service";',
          'import { type B, type C } from "#server/modules/b/service";',
          'import { type D, e } from "#server/modules/c/service";',
          'import f from "#server/modules/d/service";',
          '// import { g } from "#server/modules/e/service";',
        ].join("\n"),
      ),
    ).toEqual([
      { specifier: "#server/modules/a/service", typeOnly: true },
      { specifier: "#server/modules/b/service", typeOnly: true },
      { specifier: "#server/modules/c/service", typeOnly: false },
      { specifier: "#server/modules/d/service", typeOnly: false },
    ]);
  });

  test("a cycle through three modules is found, a chain is not", () => {
    const graph = new Map([
      ["a", new Set(["b"])],
      ["b", new Set(["c"])],
      ["c", new Set(["a"])],
      ["d", new Set(["a"])],
    ]);
    expect(cycles(graph)).toEqual([["a", "b", "c"]]);
    graph.set("c", new Set());
    expect(cycles(graph)).toEqual([]);
  });
});
