import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { products } from "#server/db/schema/catalog";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import { createTestApp } from "#server/test/app";
import { signedInClient } from "#server/test/client";
import { RenderBudget } from "#server/web/ssr";

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
  // Every test but the budget's draws from one address: room for them all within a minute.
  t = await createTestApp({ webRoot, seed: true, env: { PAGE_RENDERS_PER_MINUTE: "40" } });
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

  test("a kept page is keyed on the query it reads: tracking tags, unknown keys and defaults make no new render", async () => {
    const listing = [
      "/products?category=software",
      "/products?category=software&utm_source=news&utm_medium=mail&fbclid=abc&gclid=def",
      "/products?gclid=1&page=1&sort=default&category=software&pageSize=24&facets=true&nonsense=2",
      "/products/?category=software&utm_campaign=spring",
    ];
    for (const url of listing) {
      const res = await t.app.inject({ method: "GET", url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain("Drawn on the server");
    }
    const [product] = await t.db.select({ id: products.id }).from(products).limit(1);
    for (const query of ["", "?ref=RESELLER1", "?utm_source=x&ref=OTHER2&fbclid=y"]) {
      const res = await t.app.inject({ method: "GET", url: `/products/${product?.id}${query}` });
      expect(res.body, query).toContain("Drawn on the server");
    }
    for (const query of ["", "?newsletter=confirmed", "?utm_source=x"]) {
      await t.app.inject({ method: "GET", url: `/${query}` });
    }
    expect(stand.ssrCalls.map((c) => c.url)).toEqual([
      "http://stackbay.internal/products?category=software",
      `http://stackbay.internal/products/${product?.id}`,
      "http://stackbay.internal/",
    ]);
    // What the page does read is still a page of its own.
    await t.app.inject({ method: "GET", url: "/products?category=software&vendor=B&vendor=A&utm_source=x" });
    expect(stand.ssrCalls.at(-1)?.url).toBe(
      "http://stackbay.internal/products?category=software&vendor=B&vendor=A",
    );
  });

  test("one client gets a budget of fresh renders a minute; past it, the app's shell, while others still get drawn pages", async () => {
    const budget = t.app.env.PAGE_RENDERS_PER_MINUTE;
    const flood = (n: number, remoteAddress: string) =>
      t.app.inject({ method: "GET", url: `/products?search=flood${n}`, remoteAddress });
    for (let n = 0; n < budget; n++) {
      expect((await flood(n, "203.0.113.7")).body, `render ${n}`).toContain("Drawn on the server");
    }
    const past = await flood(budget, "203.0.113.7");
    expect(past.statusCode).toBe(200);
    expect(rootOf(past.body)).toBe('<div id="root"></div>');
    // Uncached pages drawn afresh each visit count too.
    expect(
      rootOf((await t.app.inject({ method: "GET", url: "/compare", remoteAddress: "203.0.113.7" })).body),
    ).toBe('<div id="root"></div>');
    expect(stand.ssrCalls).toHaveLength(budget);
    // A page already kept costs nothing and is still served drawn; another client is not affected.
    expect((await flood(0, "203.0.113.7")).body).toContain("Drawn on the server");
    expect((await flood(budget, "198.51.100.4")).body).toContain("Drawn on the server");
  });

  test("a render budget is per client and per minute, and holds a bounded number of clients", () => {
    let now = 0;
    const budget = new RenderBudget(2, 2, () => now);
    expect([budget.take("a"), budget.take("a"), budget.take("a")]).toEqual([true, true, false]);
    expect(budget.take("b")).toBe(true);
    // The table is full: a third client gets no fresh render until another has had none for a minute.
    expect(budget.take("c")).toBe(false);
    // The window slides: the turn of a minute gives "a" no fresh budget while its renders are recent.
    now = 59_000;
    expect(budget.take("a")).toBe(false);
    now = 60_001;
    expect([budget.take("a"), budget.take("c")]).toEqual([true, true]);
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
