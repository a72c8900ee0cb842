import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { isKnownPagePath } from "#domain/routes";
import { rendererEntry } from "#server/web/build";
import { renderHead } from "#server/web/head";
import { isServerRendered, loadPageRenderer } from "#server/web/ssr";

const HEAD_MARKER = "<!--app-head-->";
const ROOT_MARKER = '<div id="root"></div>';

/**
 * Serves the built SPA: hashed assets cached for a year (precompressed brotli/gzip when present),
 * index.html never cached and given per-page <head> tags, unknown page paths answered with status 404.
 */
export const webRoutes: FastifyPluginAsync<{ webRoot: string | null }> = async (app, { webRoot }) => {
  const indexPath = webRoot ? path.join(webRoot, "index.html") : null;
  const hasWeb = indexPath !== null && existsSync(indexPath);
  const template = hasWeb ? await readFile(indexPath, "utf8") : null;
  const renderPage = template && webRoot ? await loadPageRenderer(app, rendererEntry(webRoot)) : null;

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
    const status = known && found ? 200 : 404;
    const root =
      renderPage && status === 200 && request.method === "GET" && isServerRendered(pathname)
        ? await renderPage(request.url, request.ip)
        : "";
    // A function replacer: with a string, `$\``, `$'` or `$&` in a product's text would splice parts of
    // the template into the page.
    const html = template.replace(HEAD_MARKER, () => head).replace(ROOT_MARKER, () => root || ROOT_MARKER);
    return reply
      .status(status)
      .header("cache-control", "no-cache")
      .type("text/html; charset=utf-8")
      .send(html);
  };

  // Page paths are a route rather than the not-found handler, so the route hooks (compression among
  // them) apply to pages too; any other unknown path gets the JSON not-found answer.
  app.get("/*", { schema: { hide: true } }, async (request, reply) => {
    const pathname = request.url.split("?")[0] ?? "";
    const isPage =
      !pathname.startsWith("/api/") && !pathname.startsWith("/uploads/") && !pathname.startsWith("/assets/");
    return isPage ? sendPage(request, reply) : reply.callNotFound();
  });
  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split("?")[0] ?? "";
    return reply
      .status(404)
      .send({ code: "NOT_FOUND", message: `No route for ${request.method} ${pathname}.` });
  });
};
