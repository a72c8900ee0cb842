import type { FastifyPluginAsyncZod, ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { pageInputSchema, pageListSchema, pageSchema, publicPageSchema, searchQuery } from "#domain/cms";
import { requireRole, signedInUser } from "#server/auth/guards";
import { findActivePage, listPages, toPage } from "#server/modules/pages/repository";
import {
  changePage,
  createPage,
  pageForEditing,
  pageNotFound,
  removePage,
} from "#server/modules/pages/service";

const pageAnswer = z.object({ page: pageSchema });
// Any text is accepted so a malformed id answers 404 like an unknown one (the edit screen shows not-found).
const idParams = z.object({ id: z.string().max(64) });

/** Content pages: the public page by slug, and the admins' page management. */
export const pageRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;

  app.get(
    "/pages/:slug",
    {
      schema: {
        tags: ["content"],
        summary: "An active content page by its slug",
        params: z.object({ slug: z.string().max(200) }),
        response: { 200: z.object({ page: publicPageSchema }) },
      },
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
    admin.addHook("onRequest", requireRole("admin"));

    admin.get(
      "/admin/pages",
      {
        schema: {
          tags: ["admin"],
          summary: "Every page, drafts included, most recently updated first; search over title or slug",
          querystring: searchQuery,
          response: { 200: pageListSchema },
        },
      },
      async (request) => ({ items: await listPages(db, request.query.search) }),
    );

    admin.post(
      "/admin/pages",
      {
        schema: {
          tags: ["admin"],
          summary: "Create a page (a draft unless isActive is true); its HTML is sanitised",
          body: pageInputSchema,
          response: { 201: pageAnswer },
        },
      },
      async (request, reply) => {
        const me = signedInUser(request);
        const row = await createPage(db, me, request.body);
        request.log.info({ pageId: row.id, slug: row.slug, by: me.id }, "page created");
        return reply.status(201).send({ page: toPage(row) });
      },
    );

    admin.get(
      "/admin/pages/:id",
      {
        schema: {
          tags: ["admin"],
          summary: "One page, drafts included, for editing",
          params: idParams,
          response: { 200: pageAnswer },
        },
      },
      async (request) => {
        const row = await pageForEditing(db, request.params.id);
        return { page: toPage(row) };
      },
    );

    admin.patch(
      "/admin/pages/:id",
      {
        schema: {
          tags: ["admin"],
          summary: "Update a page; isActive and seoMeta keep their values when left out",
          params: idParams,
          body: pageInputSchema,
          response: { 200: pageAnswer },
        },
      },
      async (request) => {
        const me = signedInUser(request);
        const { id } = request.params;
        const row = await changePage(db, me, id, request.body);
        request.log.info({ pageId: id, by: me.id }, "page updated");
        return { page: toPage(row) };
      },
    );

    admin.delete(
      "/admin/pages/:id",
      {
        schema: {
          tags: ["admin"],
          summary: "Delete a page for good",
          params: idParams,
          response: { 200: z.object({ ok: z.literal(true) }) },
        },
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
