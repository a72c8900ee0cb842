import { desc, eq } from "drizzle-orm";
import type { FastifyPluginAsync } from "fastify";
import { absoluteUrl, crawlerDisallowedPaths, paths, sitemapStaticPaths } from "#domain/routes";
import { onSale } from "#server/db/products";
import { products } from "#server/db/schema/catalog";
import { sitePages } from "#server/db/schema/content";
import { publicUrl } from "#server/env";
import { escapeHtml } from "#server/lib/escape-html";
import { listPublicStorefronts } from "#server/modules/storefronts/repository";

/** The sitemap protocol's limit for one file. */
const MAX_URLS = 50_000;

export const seoRoutes: FastifyPluginAsync = async (app) => {
  app.get("/robots.txt", { schema: { hide: true } }, async (_request, reply) => {
    const base = publicUrl(app.env);
    reply.type("text/plain; charset=utf-8").header("cache-control", "public, max-age=3600");
    return [
      "User-agent: *",
      "Allow: /",
      "Disallow: /api/",
      ...crawlerDisallowedPaths.map((path) => `Disallow: ${path}`),
      "",
      `Sitemap: ${base}/sitemap.xml`,
      "",
    ].join("\n");
  });

  app.get("/sitemap.xml", { schema: { hide: true } }, async (_request, reply) => {
    const base = publicUrl(app.env);
    const { db } = app.database;
    const pages = await db
      .select({ slug: sitePages.slug, updatedAt: sitePages.updatedAt })
      .from(sitePages)
      .where(eq(sitePages.isActive, true));
    const vendors = await listPublicStorefronts(db);
    const items = await db
      .select({ id: products.id, updatedAt: products.updatedAt })
      .from(products)
      .where(onSale())
      .orderBy(desc(products.updatedAt))
      .limit(MAX_URLS - sitemapStaticPaths.length - pages.length - vendors.length);
    const entry = (path: string, updated?: Date) =>
      `  <url><loc>${escapeHtml(absoluteUrl(base, path))}</loc>${updated ? `<lastmod>${updated.toISOString()}</lastmod>` : ""}</url>`;
    const body = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
      ...sitemapStaticPaths.map((path) => entry(path)),
      ...pages.map((p) => entry(paths.page(p.slug), p.updatedAt)),
      ...vendors.map((v) => entry(paths.vendor(v.slug), v.updatedAt)),
      ...items.map((p) => entry(paths.product(p.id), p.updatedAt)),
      "</urlset>",
      "",
    ].join("\n");
    reply.type("application/xml; charset=utf-8").header("cache-control", "public, max-age=3600");
    return body;
  });
};
