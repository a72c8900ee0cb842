import type { FastifyPluginAsyncZod, ZodTypeProvider } from "fastify-type-provider-zod";
import { requireRole, signedInUser } from "#server/auth/guards";
import { route } from "#server/http/route";
import { findActivePage, listPages, toPage } from "#server/modules/pages/repository";
import {
  changePage,
  createPage,
  pageForEditing,
  pageNotFound,
  removePage,
} from "#server/modules/pages/service";

// Any text is accepted so a malformed id answers 404 like an unknown one (the edit screen shows not-found).
/** Content pages: the public page by slug, and the admins' page management. */
export const pageRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;

  route(
    app,
    "GET /pages/:slug",
    {
      tags: ["content"],
      summary: "An active content page by its slug",
    },
    async (request, reply) => {
      const row = await findActivePage(db, request.params.slug);
      if (!row) throw pageNotFound();
      // Shared caches may keep it, but an admin's edit must show on the next load: revalidate every time.
      reply.header("cache-control", "public, no-cache");
      const { slug, title, content, seoMeta, updatedAt } = toPage(row);
      return { page: { slug, title, content, seoMeta, updatedAt } };
    },
  );

  app.register(async (scope) => {
    const admin = scope.withTypeProvider<ZodTypeProvider>();

    route(
      admin,
      "GET /admin/pages",
      {
        tags: ["admin"],
        summary: "Every page, drafts included, most recently updated first; search over title or slug",
        onRequest: requireRole("admin"),
      },
      async (request) => ({ items: await listPages(db, request.query.search) }),
    );

    route(
      admin,
      "POST /admin/pages",
      {
        tags: ["admin"],
        summary: "Create a page (a draft unless isActive is true); its HTML is sanitised",
        onRequest: requireRole("admin"),
      },
      async (request, reply) => {
        const me = signedInUser(request);
        const row = await createPage(db, me, request.body);
        request.log.info({ pageId: row.id, slug: row.slug, by: me.id }, "page created");
        return reply.status(201).send({ page: toPage(row) });
      },
    );

    route(
      admin,
      "GET /admin/pages/:id",
      {
        tags: ["admin"],
        summary: "One page, drafts included, for editing",
        onRequest: requireRole("admin"),
      },
      async (request) => {
        const row = await pageForEditing(db, request.params.id);
        return { page: toPage(row) };
      },
    );

    route(
      admin,
      "PATCH /admin/pages/:id",
      {
        tags: ["admin"],
        summary: "Update a page; isActive and seoMeta keep their values when left out",
        onRequest: requireRole("admin"),
      },
      async (request) => {
        const me = signedInUser(request);
        const { id } = request.params;
        const row = await changePage(db, me, id, request.body);
        request.log.info({ pageId: id, by: me.id }, "page updated");
        return { page: toPage(row) };
      },
    );

    route(
      admin,
      "DELETE /admin/pages/:id",
      {
        tags: ["admin"],
        summary: "Delete a page for good",
        onRequest: requireRole("admin"),
      },
      async (request) => {
        const me = signedInUser(request);
        const { id } = request.params;
        await removePage(db, me, id);
        request.log.info({ pageId: id, by: me.id }, "page deleted");
        return { ok: true as const };
      },
    );
  });
};
