import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";

/**
 * A read that failed is shown by `LoadError` (its heading, the reason, Try again), so every screen says it
 * the same way and can always retry. A screen that words a load failure itself ("could not be loaded",
 * "Couldn't load …", "Failed to load …", "Error loading …") in its own markup skips that: it is found here. The words that
 * `LoadError` shows are handed to it as `title`, `text` or `what`, which this test lets through on
 * `<LoadError` only; an error toast's `title:` and `description:` too.
 */
const web = path.resolve(fileURLToPath(new URL("../..", import.meta.url)));

/** Screens: routes and feature components, not the fetchers under `features/*\/api/`. */
function screenFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "api" ? [] : screenFiles(full);
    return entry.name.endsWith(".tsx") ? [full] : [];
  });
}

const loadFailure = /\b(?:(?:could\s*n[o']t|failed\s+to)\s+(?:be\s+)?load|error\s+loading)/i;

/** The load-failure wording a file renders outside `LoadError`'s own props, one entry per place. */
function ownLoadErrors(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  const found: string[] = [];
  // JSX text between tags.
  for (const [, text = ""] of code.matchAll(/>([^<>{}]*)[<{]/g)) {
    if (loadFailure.test(text)) found.push(text.trim());
  }
  // String literals, except those handed to LoadError (title="…", text="…", what="…") or to an error
  // toast ({ title: "…", description: "…" }).
  for (const match of code.matchAll(/(["'`])((?:(?!\1)[^\\\n]|\\.)*)\1/g)) {
    const before = code.slice(Math.max(0, (match.index ?? 0) - 2000), match.index);
    const element = /<([A-Za-z][\w.]*)[^<]*$/.exec(before)?.[1];
    if (element === "LoadError" && /\b(?:title|text|what)=\{?$/.test(before)) continue;
    if (/\b(?:title|description):\s*$/.test(before)) continue;
    if (loadFailure.test(match[2] ?? "")) found.push(match[2] ?? "");
  }
  return found;
}

test("the check finds a screen's own load-error markup and lets LoadError's props through", () => {
  expect(ownLoadErrors(`<p role="alert">Failed to load licenses. {error.message}</p>`)).toEqual([
    "Failed to load licenses.",
  ]);
  expect(ownLoadErrors(`<h1>{missing ? "Not found" : "Could not load the payment"}</h1>`)).toEqual([
    "Could not load the payment",
  ]);
  expect(ownLoadErrors(`text = "Your fee could not be loaded.";`)).toEqual(["Your fee could not be loaded."]);
  expect(ownLoadErrors(`<h2 className="x">Error loading products</h2>`)).toEqual(["Error loading products"]);
  expect(ownLoadErrors(`<LoadError title="Failed to load orders" error={e} onRetry={retry} />`)).toEqual([]);
  expect(ownLoadErrors(`<LoadError\n  page\n  title="Could not load your order"\n  error={e}`)).toEqual([]);
  // A screen's own wrapper with the same props is its own markup.
  expect(ownLoadErrors(`<Notice title="Couldn't load the invoice" action={retry} />`)).toEqual([
    "Couldn't load the invoice",
  ]);
  expect(ownLoadErrors(`reportError(e, { title: "Error loading orders", description: "x" })`)).toEqual([]);
  expect(ownLoadErrors(`// The list could not be loaded: say so.\n<LoadError what="list" />`)).toEqual([]);
});

test("no route or feature screen draws its own load error; each uses LoadError", () => {
  const offenders = [path.join(web, "app"), path.join(web, "features")]
    .flatMap(screenFiles)
    .flatMap((file) =>
      ownLoadErrors(readFileSync(file, "utf8")).map((text) => `${path.relative(web, file)}: ${text}`),
    );
  expect(offenders).toEqual([]);
});
