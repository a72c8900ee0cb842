import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { routePatterns } from "#domain/routes";
import { createTestApp } from "#server/test/app";

let t: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  // A stand-in build, so these tests do not depend on running Vite.
  const webRoot = await mkdtemp(path.join(os.tmpdir(), "stackbay-web-"));
  await mkdir(path.join(webRoot, "assets"));
  await writeFile(path.join(webRoot, "index.html"), "<html><head><!--app-head--></head><body></body></html>");
  await writeFile(path.join(webRoot, "assets", "app-abc123.js"), "console.log('app')");
  await writeFile(path.join(webRoot, "favicon.svg"), "<svg xmlns='http://www.w3.org/2000/svg'/>");
  t = await createTestApp({ webRoot });
});
afterAll(() => t.close());

const concrete = (pattern: string) =>
  pattern.replace(":id", "8d3c").replace(":slug", "buyer-protection").replace(":view", "settings");

describe("serving the app", () => {
  test("every path of the route table, legacy links included, answers 200 with the app and its head tags", async () => {
    for (const pattern of Object.values(routePatterns)) {
      const url = concrete(pattern);
      const res = await t.app.inject({ method: "GET", url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers["content-type"]).toContain("text/html");
      expect(res.headers["cache-control"]).toBe("no-cache");
      expect(res.body).toContain("<title>Stackbay | Global marketplace");
      expect(res.body).toContain(`<link rel="canonical" href="http://127.0.0.1:3000${url}" />`);
    }
  });

  test("an unknown page path gets the app (for its 404 screen) with status 404", async () => {
    for (const url of ["/nope", "/products/a/b", "/dashboard/unknown", "/admin"]) {
      const res = await t.app.inject({ method: "GET", url });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers["content-type"]).toContain("text/html");
    }
  });

  test("hashed assets are cached for a year, other files briefly, and index.html is never served raw", async () => {
    const asset = await t.app.inject({ method: "GET", url: "/assets/app-abc123.js" });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    const icon = await t.app.inject({ method: "GET", url: "/favicon.svg" });
    expect(icon.headers["cache-control"]).toBe("public, max-age=300");
    const raw = await t.app.inject({ method: "GET", url: "/index.html" });
    expect(raw.body).not.toContain("<!--app-head-->");
    const missingAsset = await t.app.inject({ method: "GET", url: "/assets/missing.js" });
    expect(missingAsset.statusCode).toBe(404);
    expect(missingAsset.json().code).toBe("NOT_FOUND");
  });

  test("API and non-GET misses stay JSON", async () => {
    const post = await t.app.inject({ method: "POST", url: "/products" });
    expect(post.statusCode).toBe(404);
    expect(post.json()).toMatchObject({ code: "NOT_FOUND" });
  });

  test("uploads are served with nosniff and long caching", async () => {
    await mkdir(path.join(t.dataDir, "uploads", "products"), { recursive: true });
    await writeFile(path.join(t.dataDir, "uploads", "products", "x.webp"), Buffer.from("RIFF0000WEBP"));
    const res = await t.app.inject({ method: "GET", url: "/uploads/products/x.webp" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
  });
});
