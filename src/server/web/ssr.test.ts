import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import { createTestApp } from "#server/test/app";
import { signedInClient } from "#server/test/client";

/**
 * The server's side of drawing pages (decision 0020), with a stand-in renderer in place of the built
 * `entry-server.js`: what it may fetch, how its output lands in the page, when it is kept. The real
 * renderer is exercised by the browser journey (e2e/server-rendering.test.ts).
 */
type Call = { url: string; answers: Record<string, { status: number; body: unknown }> };
type Behaviour = "draw" | "fail" | "incomplete";
const stand = globalThis as unknown as { ssrCalls: Call[]; ssrBehaviour: Behaviour };

const renderer = `
export async function renderPage(url, fetchOnServer) {
  const call = { url, answers: {} };
  globalThis.ssrCalls.push(call);
  if (globalThis.ssrBehaviour === "fail") throw new Error("render failed");
  for (const path of ["/api/categories", "/api/me", "/api/orders"]) {
    const res = await fetchOnServer(new URL(path, "http://stackbay.internal"));
    call.answers[path] = { status: res.status, body: await res.json() };
  }
  const posted = await fetchOnServer(new URL("/api/categories", "http://stackbay.internal"), { method: "POST" });
  call.answers["POST /api/categories"] = { status: posted.status, body: await posted.json() };
  return {
    html: "<main><h1>Drawn on the server</h1></main>",
    state: { note: "</script><script>alert(1)</script>" },
    complete: globalThis.ssrBehaviour !== "incomplete",
  };
}`;

let t: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  const webRoot = await mkdtemp(path.join(os.tmpdir(), "stackbay-ssr-"));
  await writeFile(
    path.join(webRoot, "index.html"),
    '<html><head><!--app-head--></head><body><div id="root"></div><script type="module" src="/x.js"></script></body></html>',
  );
  await mkdir(`${webRoot}-ssr`);
  await writeFile(path.join(`${webRoot}-ssr`, "entry-server.js"), renderer);
  t = await createTestApp({ webRoot, seed: true });
});
afterAll(() => t.close());
beforeEach(() => {
  stand.ssrCalls = [];
  stand.ssrBehaviour = "draw";
  t.app.catalogueCache.clear();
});

const rootOf = (html: string) =>
  html.slice(html.indexOf("<body>") + 6, html.indexOf('<script type="module"'));

describe("pages drawn on the server", () => {
  test("a public page carries the drawn markup and its data, with the data unable to close its script", async () => {
    const res = await t.app.inject({ method: "GET", url: "/products?category=software" });
    expect(res.statusCode).toBe(200);
    expect(rootOf(res.body)).toBe(
      '<div id="root" data-ssr><main><h1>Drawn on the server</h1></main></div>' +
        '<script type="application/json" id="ssr-state">{"note":"\\u003c/script>\\u003cscript>alert(1)\\u003c/script>"}</script>',
    );
    expect(res.body.match(/<\/script>/g)).toHaveLength(2);
    expect(stand.ssrCalls.map((c) => c.url)).toEqual(["http://stackbay.internal/products?category=software"]);
  });

  test("the renderer gets the public catalogue, and nobody's session, cart or writes", async () => {
    const buyer = await signedInClient(t.app, "buyer@stackbay.test", DEMO_PASSWORD);
    await buyer.get("/");
    const [call] = stand.ssrCalls;
    expect(call?.answers["/api/categories"]?.status).toBe(200);
    expect(Array.isArray(call?.answers["/api/categories"]?.body)).toBe(true);
    for (const privatePath of ["/api/me", "/api/orders", "POST /api/categories"]) {
      expect(call?.answers[privatePath], privatePath).toEqual({
        status: 401,
        body: { code: "NOT_RENDERED_ON_SERVER", message: "Asked for by the browser." },
      });
    }
  });

  test("a drawn page is kept until the catalogue changes; one drawn from failed reads is never kept", async () => {
    await t.app.inject({ method: "GET", url: "/about" });
    await t.app.inject({ method: "GET", url: "/about" });
    expect(stand.ssrCalls).toHaveLength(1);
    t.app.catalogueCache.clear();
    await t.app.inject({ method: "GET", url: "/about" });
    expect(stand.ssrCalls).toHaveLength(2);

    stand.ssrBehaviour = "incomplete";
    const first = await t.app.inject({ method: "GET", url: "/faq" });
    const second = await t.app.inject({ method: "GET", url: "/faq" });
    expect(first.body).toContain("Drawn on the server");
    expect(second.body).toContain("Drawn on the server");
    expect(stand.ssrCalls).toHaveLength(4);
  });

  test("a content page, a storefront and a comparison read more than the catalogue: drawn afresh each visit", async () => {
    for (const url of ["/pages/buyer-protection", "/vendors/cinderpath-security", "/compare"]) {
      stand.ssrCalls = [];
      await t.app.inject({ method: "GET", url });
      await t.app.inject({ method: "GET", url });
      expect(stand.ssrCalls, url).toHaveLength(2);
    }
  });

  test("a failed render sends the app's empty shell, which draws the page in the browser", async () => {
    stand.ssrBehaviour = "fail";
    const res = await t.app.inject({ method: "GET", url: "/products" });
    expect(res.statusCode).toBe(200);
    expect(rootOf(res.body)).toBe('<div id="root"></div>');
  });

  test("account, checkout and admin screens, unknown paths and HEAD requests are not drawn", async () => {
    for (const url of ["/dashboard", "/cart", "/checkout", "/admin/products", "/login"]) {
      const res = await t.app.inject({ method: "GET", url });
      expect(res.statusCode, url).toBe(200);
      expect(rootOf(res.body), url).toBe('<div id="root"></div>');
    }
    const missing = await t.app.inject({
      method: "GET",
      url: "/products/00000000-0000-4000-8000-000000000000",
    });
    expect(missing.statusCode).toBe(404);
    expect(rootOf(missing.body)).toBe('<div id="root"></div>');
    const head = await t.app.inject({ method: "HEAD", url: "/products" });
    expect(head.statusCode).toBe(200);
    expect(stand.ssrCalls).toHaveLength(0);
  });

  test("pages are compressed, and unknown API paths still answer JSON", async () => {
    const page = await t.app.inject({
      method: "GET",
      url: "/products",
      headers: { "accept-encoding": "gzip" },
    });
    expect(page.headers["content-encoding"]).toBe("gzip");
    const api = await t.app.inject({ method: "GET", url: "/api/nope" });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ code: "NOT_FOUND", message: "No route for GET /api/nope." });
  });
});
