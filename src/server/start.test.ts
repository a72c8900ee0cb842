import { readdirSync, readFileSync } from "node:fs";
import * as nodeModule from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";

/**
 * `npm start` runs the server's TypeScript on Node itself (type stripping), not through a compiler: a
 * first start compiled hundreds of files with tsx before the server could listen. Node only erases
 * types, so the code the server loads must be plain JavaScript once its annotations are gone (no
 * parameter properties, enums or namespaces) and relative imports must name their file's extension.
 * The compiler accepts both, so this reads every file the server may load.
 */
// Node 22.13's, not yet in the project's @types/node.
const { stripTypeScriptTypes } = nodeModule as unknown as {
  stripTypeScriptTypes: (code: string, options: { sourceUrl: string }) => string;
};

const root = path.resolve(fileURLToPath(new URL("../..", import.meta.url)));

function serverFiles(dir: string): string[] {
  return (
    readdirSync(path.join(root, dir), { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts"))
      .map((file) => path.join(dir, file))
      // Test helpers run under Vitest only.
      .filter((file) => !file.startsWith(path.join("src", "server", "test")))
  );
}

const files = [...serverFiles(path.join("src", "server")), ...serverFiles(path.join("src", "domain"))];

test("every file the server loads runs on Node's type stripping", () => {
  const refused = files.flatMap((file) => {
    try {
      stripTypeScriptTypes(readFileSync(path.join(root, file), "utf8"), { sourceUrl: file });
      return [];
    } catch (error) {
      return [`${file}: ${(error as Error).message.split("\n")[0]}`];
    }
  });
  expect(files.length).toBeGreaterThan(100);
  expect(refused).toEqual([]);
});

test("relative imports name their file, as Node resolves them without guessing", () => {
  const specifier = /(?:from\s*|import\s*\(\s*)["'](\.{1,2}\/[^"']*)["']/g;
  const unresolvable = files.flatMap((file) =>
    [...readFileSync(path.join(root, file), "utf8").matchAll(specifier)]
      .map((match) => match[1] as string)
      .filter((spec) => !/\.(ts|js|mjs|json)$/.test(spec))
      .map((spec) => `${file}: ${spec}`),
  );
  expect(unresolvable).toEqual([]);
});

test("JSON modules are imported with their type, which Node requires", () => {
  const jsonImport =
    /import\s+[\w$\s{},*]+\s+from\s*["']([^"']+\.json)["'](\s*with\s*\{\s*type:\s*["']json["']\s*\})?/g;
  const untyped = files.flatMap((file) =>
    [...readFileSync(path.join(root, file), "utf8").matchAll(jsonImport)]
      .filter((match) => !match[2])
      .map((match) => `${file}: ${match[1]}`),
  );
  expect(untyped).toEqual([]);
});
