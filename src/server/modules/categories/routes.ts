import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { requireRole, signedInUser } from "#server/auth/guards";
import { route } from "#server/http/route";
import { listCategoriesWithCounts } from "#server/modules/categories/repository";
import { createCategory, removeCategory } from "#server/modules/categories/service";

/** Category management for admins; the public list is GET /api/categories in the catalogue module. */
export const categoryRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;

  route(
    app,
    "GET /admin/categories",
    {
      tags: ["admin"],
      summary: "Every category with its number of products (active and inactive), newest first",
      onRequest: requireRole("admin"),
    },
    async () => ({ items: await listCategoriesWithCounts(db) }),
  );

  route(
    app,
    "POST /admin/categories",
    {
      tags: ["admin"],
      summary: "Add a category; its slug is derived from the name",
      onRequest: requireRole("admin"),
    },
    async (request, reply) => {
      const me = signedInUser(request);
      const { name } = request.body;
      const row = await createCategory(db, me, name);
      request.log.info({ categoryId: row.id, slug: row.slug, by: me.id }, "category created");
      return reply.status(201).send({
        category: { ...row, productCount: 0, createdAt: row.createdAt.toISOString() },
      });
    },
  );

  route(
    app,
    "DELETE /admin/categories/:id",
    {
      tags: ["admin"],
      summary: "Delete a category that no product uses",
      description: "Refused with 409 CATEGORY_IN_USE while any product, active or inactive, is in it.",
      onRequest: requireRole("admin"),
    },
    async (request) => {
      const me = signedInUser(request);
      const { id } = request.params;
      const removed = await removeCategory(db, me, id);
      request.log.info({ categoryId: id, slug: removed.slug, by: me.id }, "category deleted");
      return { ok: true as const };
    },
  );
};
