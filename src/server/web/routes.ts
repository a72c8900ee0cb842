import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { isKnownPagePath } from "#domain/routes";
import { renderHead } from "#server/web/head";

const HEAD_MARKER = "<!--app-head-->";

/**
 * Serves the built SPA: hashed assets cached for a year (precompressed brotli/gzip when present),
 * index.html never cached and given per-page <head> tags, unknown page paths answered with status 404.
 */
export const webRoutes: FastifyPluginAsync<{ webRoot: string | null }> = async (app, { webRoot }) => {
  const indexPath = webRoot ? path.join(webRoot, "index.html") : null;
  const hasWeb = indexPath !== null && existsSync(indexPath);
  const template = hasWeb ? await readFile(indexPath, "utf8") : null;

  if (hasWeb && webRoot) {
    await app.register(fastifyStatic, {
      root: webRoot,
      prefix: "/",
      index: false,
      wildcard: false,
      preCompressed: true,
      allowedPath: (pathname) => pathname !== "/index.html",
      setHeaders: (res, filePath) => {
        const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header("cache-control", hashed ? "public, max-age=31536000, immutable" : "public, max-age=300");
      },
    });
  }

  const sendPage = async (request: FastifyRequest, reply: FastifyReply) => {
    const pathname = new URL(request.url, "http://localhost").pathname;
    const known = isKnownPagePath(pathname);
    if (!template) {
      return reply
        .status(404)
        .send({ code: "NOT_FOUND", message: "The web app is not built. Run `npm run build`." });
    }
    const { head, found } = await renderHead(app, pathname);
    // A function replacer: with a string, `$\``, `$'` or `$&` in a product's text would splice parts of
    // the template into the page.
    const html = template.replace(HEAD_MARKER, () => head);
    return reply
      .status(known && found ? 200 : 404)
      .header("cache-control", "no-cache")
      .type("text/html; charset=utf-8")
      .send(html);
  };

  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split("?")[0] ?? "";
    const isPage =
      (request.method === "GET" || request.method === "HEAD") &&
      !pathname.startsWith("/api/") &&
      !pathname.startsWith("/uploads/") &&
      !pathname.startsWith("/assets/");
    if (!isPage) {
      return reply
        .status(404)
        .send({ code: "NOT_FOUND", message: `No route for ${request.method} ${pathname}.` });
    }
    return sendPage(request, reply);
  });
};
