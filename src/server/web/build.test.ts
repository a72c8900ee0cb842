import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterEach, beforeEach, expect, test } from "vitest";
import { compressRemaining } from "#server/web/build";

// A first start's build compresses only what the first page loads; once listening, the server writes
// the copies of everything else, which it then sends instead of the files themselves.
let appRoot = "";
beforeEach(async () => {
  appRoot = await mkdtemp(path.join(os.tmpdir(), "stackbay-compress-"));
  await mkdir(path.join(appRoot, "assets"));
  await mkdir(path.join(appRoot, ".vite"));
});
afterEach(() => rm(appRoot, { recursive: true, force: true }));

test("the assets a build left uncompressed get brotli and gzip copies, once", async () => {
  const chart = `export const chart = ${JSON.stringify("bar ".repeat(2_000))};\n`;
  await writeFile(path.join(appRoot, "assets/chart-abc.js"), chart);
  // Compressed by the build already: left as it is.
  await writeFile(path.join(appRoot, "assets/index-def.js"), "x".repeat(4_000));
  await writeFile(path.join(appRoot, "assets/index-def.js.br"), "built");
  await writeFile(path.join(appRoot, "assets/index-def.js.gz"), "built");
  // Too small to gain from it, an image, and the manifest (never served): none compressed.
  await writeFile(path.join(appRoot, "assets/tiny-123.js"), "export {};\n");
  await writeFile(path.join(appRoot, "assets/logo.webp"), Buffer.alloc(4_000));
  await writeFile(path.join(appRoot, ".vite/manifest.json"), JSON.stringify({ a: "b".repeat(4_000) }));

  expect(await compressRemaining(appRoot)).toBe(1);
  const chartPath = path.join(appRoot, "assets/chart-abc.js");
  expect(brotliDecompressSync(await readFile(`${chartPath}.br`)).toString()).toBe(chart);
  expect(gunzipSync(await readFile(`${chartPath}.gz`)).toString()).toBe(chart);
  expect(await readFile(path.join(appRoot, "assets/index-def.js.br"), "utf8")).toBe("built");
  for (const file of ["assets/tiny-123.js", "assets/logo.webp", ".vite/manifest.json"])
    expect(existsSync(path.join(appRoot, `${file}.br`))).toBe(false);

  // A later start finds nothing left to do.
  expect(await compressRemaining(appRoot)).toBe(0);
});
