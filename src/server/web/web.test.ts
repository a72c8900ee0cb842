import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { routePatterns } from "#domain/routes";
import { products } from "#server/db/schema/catalog";
import { sitePages } from "#server/db/schema/content";
import { createTestApp } from "#server/test/app";

let t: Awaited<ReturnType<typeof createTestApp>>;
let productId: string;
beforeAll(async () => {
  // A stand-in build, so these tests do not depend on running Vite.
  const webRoot = await mkdtemp(path.join(os.tmpdir(), "stackbay-web-"));
  await mkdir(path.join(webRoot, "assets"));
  await writeFile(path.join(webRoot, "index.html"), "<html><head><!--app-head--></head><body></body></html>");
  await writeFile(path.join(webRoot, "assets", "app-abc123.js"), "console.log('app')");
  await writeFile(path.join(webRoot, "favicon.svg"), "<svg xmlns='http://www.w3.org/2000/svg'/>");
  t = await createTestApp({ webRoot, seed: true });
  const [row] = await t.db.select({ id: products.id }).from(products).limit(1);
  productId = row!.id;
});
afterAll(() => t.close());

const concrete = (pattern: string) =>
  pattern
    .replace("/vendors/:slug", "/vendors/cinderpath-security")
    .replace(":id", productId)
    .replace(":slug", "buyer-protection")
    .replace(":view", "settings");

describe("serving the app", () => {
  test("every path of the route table, legacy links included, answers 200 with the app and its head tags", async () => {
    for (const pattern of Object.values(routePatterns)) {
      const url = concrete(pattern);
      const res = await t.app.inject({ method: "GET", url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers["content-type"]).toContain("text/html");
      expect(res.headers["cache-control"]).toBe("no-cache");
      expect(res.body).toMatch(/<title>[^<]+\| Stackbay<\/title>|<title>Stackbay \| Global marketplace/);
      expect(res.body).toContain(`<link rel="canonical" href="http://127.0.0.1:3000${url}" />`);
    }
  });

  test("an unknown page path gets the app (for its 404 screen) with status 404", async () => {
    for (const url of ["/nope", "/products/a/b", "/dashboard/unknown", "/admin/nope"]) {
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

  test("product pages get the product's title, description, image and type; missing ones are 404", async () => {
    const [row] = await t.db.select().from(products).where(eq(products.id, productId));
    const res = await t.app.inject({ method: "GET", url: `/products/${productId}` });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(`<title>${row!.name} by ${row!.vendor} | Stackbay</title>`);
    expect(res.body).toContain('<meta property="og:type" content="product" />');
    expect(res.body).toContain(
      `<meta property="og:image" content="http://127.0.0.1:3000${row!.imageUrl}" />`,
    );
    expect(res.body).toMatch(/<meta name="description" content="[^"]{20,160}" \/>/);
    // The picture the page shows first starts loading with the HTML, not after the app has run.
    expect(res.body).toContain(
      `<link rel="preload" as="image" href="${row!.images[0] ?? row!.imageUrl}" fetchpriority="high" />`,
    );
    for (const url of ["/products/00000000-0000-4000-8000-000000000000", "/products/nope", "/product/nope"]) {
      const missing = await t.app.inject({ method: "GET", url });
      expect(missing.statusCode, url).toBe(url.startsWith("/product/") ? 200 : 404);
    }
    await t.db.update(products).set({ isActive: false }).where(eq(products.id, productId));
    expect((await t.app.inject({ method: "GET", url: `/products/${productId}` })).statusCode).toBe(404);
    await t.db.update(products).set({ isActive: true }).where(eq(products.id, productId));
  });

  test("content pages use their SEO title; inactive or missing pages are 404", async () => {
    const res = await t.app.inject({ method: "GET", url: "/pages/buyer-protection" });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain("<title>Buyer Protection | Stackbay</title>");
    await t.db.update(sitePages).set({ isActive: false }).where(eq(sitePages.slug, "seller-guide"));
    expect((await t.app.inject({ method: "GET", url: "/pages/seller-guide" })).statusCode).toBe(404);
    expect((await t.app.inject({ method: "GET", url: "/pages/no-such-page" })).statusCode).toBe(404);
  });

  test("replacement patterns ($`, $' and $&) in product and page texts are served literally, once", async () => {
    const tricky = "Tricky $` and $' and $& and $$";
    const [row] = await t.db.select().from(products).where(eq(products.id, productId));
    await t.db
      .update(products)
      .set({ name: tricky, vendor: null, description: `About ${tricky}` })
      .where(eq(products.id, productId));
    const [page] = await t.db.select().from(sitePages).where(eq(sitePages.slug, "buyer-protection"));
    await t.db
      .update(sitePages)
      .set({ seoMeta: { ...page!.seoMeta, title: tricky } })
      .where(eq(sitePages.slug, "buyer-protection"));
    try {
      const escaped = "Tricky $` and $&#39; and $&amp; and $$";
      for (const url of [`/products/${productId}`, "/pages/buyer-protection"]) {
        const res = await t.app.inject({ method: "GET", url });
        expect(res.statusCode, url).toBe(200);
        expect(res.body, url).toContain(`<title>${escaped}`);
        expect(res.body.split("<html>").length - 1, url).toBe(1);
        expect(res.body.split("</html>").length - 1, url).toBe(1);
        expect(res.body.split("<head>").length - 1, url).toBe(1);
      }
      const product = await t.app.inject({ method: "GET", url: `/products/${productId}` });
      expect(product.body).toContain(`<meta name="description" content="About ${escaped}" />`);
    } finally {
      const { name, vendor, description } = row!;
      await t.db.update(products).set({ name, vendor, description }).where(eq(products.id, productId));
      await t.db
        .update(sitePages)
        .set({ seoMeta: page!.seoMeta })
        .where(eq(sitePages.slug, "buyer-protection"));
    }
  });

  test("robots.txt and sitemap.xml list what search engines should see", async () => {
    const robots = await t.app.inject({ method: "GET", url: "/robots.txt" });
    expect(robots.body).toContain("Disallow: /admin/");
    expect(robots.body).toContain("Sitemap: http://127.0.0.1:3000/sitemap.xml");
    const sitemap = await t.app.inject({ method: "GET", url: "/sitemap.xml" });
    expect(sitemap.headers["content-type"]).toContain("application/xml");
    expect(sitemap.body).toContain(`<loc>http://127.0.0.1:3000/products/${productId}</loc>`);
    expect(sitemap.body).toContain("<loc>http://127.0.0.1:3000/pages/buyer-protection</loc>");
    expect(sitemap.body).not.toContain("/pages/seller-guide");
    const active = await t.db.select({ id: products.id }).from(products).where(eq(products.isActive, true));
    expect(sitemap.body.match(/\/products\/[0-9a-f-]{36}</g)).toHaveLength(active.length);
  });
});
