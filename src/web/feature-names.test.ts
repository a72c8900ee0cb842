import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";

/**
 * A feature has one name on both sides: `src/web/features/<x>` is the web half of
 * `src/server/modules/<x>`, so a reader who knows one finds the other. Only the folders below have no
 * server module of their own.
 */
const webOnly = new Set([
  // The about page's team avatars; the page itself is written in the screen.
  "about",
  // Sessions, guards and the sign-in screens' fetchers: the server's half is `src/server/auth`.
  "auth",
  // The cart lives in the browser until checkout (the orders module) prices it.
  "cart",
  // The shopper's display currency; the rates are read from the catalogue's public /fx-rates.
  "currency",
  // Light and dark, kept in the browser.
  "theme",
]);

const src = path.resolve(fileURLToPath(new URL("..", import.meta.url)));
const folders = (dir: string) =>
  readdirSync(path.join(src, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

test("every web feature folder is named after its server module, or is listed as web-only", () => {
  const modules = new Set(folders("server/modules"));
  const unmatched = folders("web/features").filter((name) => !modules.has(name) && !webOnly.has(name));
  expect(unmatched).toEqual([]);
});

test("the web-only list names no server module and no folder that is gone", () => {
  const modules = new Set(folders("server/modules"));
  const features = new Set(folders("web/features"));
  expect([...webOnly].filter((name) => modules.has(name) || !features.has(name))).toEqual([]);
});
