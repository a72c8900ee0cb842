import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";

/**
 * docs/ARCHITECTURE.md: a module's `routes.ts` declares routes and calls its service or repository;
 * Drizzle queries live in `repository.ts`. The compiler accepts a query written in a route, so this
 * names the route file and the import instead.
 */
const modules = path.resolve(fileURLToPath(new URL("modules", import.meta.url)));

// Static imports and re-exports, side-effect imports and dynamic imports with a literal path.
const importPatterns = [
  /(?:^|\n)[ \t]*(?:import|export)\s+(?:type\s+)?[\w$\s{},*]*?\s*from\s*["']([^"']+)["']/g,
  /(?:^|\n)[ \t]*import\s*["']([^"']+)["']/g,
  /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g,
];

const reachesDrizzle = (specifier: string) =>
  specifier === "drizzle-orm" ||
  specifier.startsWith("drizzle-orm/") ||
  specifier.startsWith("#server/db/schema") ||
  /(^|\/)db\/schema(\/|$)/.test(specifier);

const routeFiles = readdirSync(modules, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => path.join(modules, entry.name, "routes.ts"))
  .filter((file) => existsSync(file));

describe("module shape", () => {
  test("there are route files to check", () => {
    expect(routeFiles.length).toBeGreaterThan(10);
  });

  test.each(routeFiles.map((file) => [path.relative(modules, file), file]))(
    "%s imports neither drizzle-orm nor the database schema",
    (_name, file) => {
      const text = readFileSync(file, "utf8");
      const offending = importPatterns
        .flatMap((pattern) => [...text.matchAll(pattern)].map((match) => match[1] ?? ""))
        .filter(reachesDrizzle);
      expect(offending).toEqual([]);
    },
  );
});
