import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  adminCategoryListSchema,
  categoryInputSchema,
  categoryInUseMessage,
  createdCategorySchema,
} from "#domain/category-admin";
import { slugify } from "#domain/slug";
import { requireRole, signedInUser } from "#server/auth/guards";
import { Conflict, NotFound } from "#server/errors";
import { recordAudit } from "#server/lib/audit";
import {
  countProductsInCategory,
  deleteCategory,
  insertCategory,
  listCategoriesWithCounts,
  lockCategory,
} from "#server/modules/categories/repository";

const idParams = z.object({ id: z.uuid("Unknown category") });
const categoryNotFound = () => new NotFound("Category not found.", "CATEGORY_NOT_FOUND");

/** Category management for admins; the public list is GET /api/categories in the catalogue module. */
export const categoryRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  app.addHook("onRequest", requireRole("admin"));

  app.get(
    "/admin/categories",
    {
      schema: {
        tags: ["admin"],
        summary: "Every category with its number of products (active and inactive), newest first",
        response: { 200: adminCategoryListSchema },
      },
    },
    async () => ({ items: await listCategoriesWithCounts(db) }),
  );

  app.post(
    "/admin/categories",
    {
      schema: {
        tags: ["admin"],
        summary: "Add a category; its slug is derived from the name",
        body: categoryInputSchema,
        response: { 201: createdCategorySchema },
      },
    },
    async (request, reply) => {
      const me = signedInUser(request);
      const { name } = request.body;
      const slug = slugify(name);
      const row = await db.transaction(async (tx) => {
        const created = await insertCategory(tx, { name, slug });
        if (!created) {
          throw new Conflict(
            `A category with the slug "${slug}" already exists. Choose a different name.`,
            "CATEGORY_EXISTS",
          );
        }
        await recordAudit(tx, me, {
          action: "create",
          entityType: "category",
          entityId: created.id,
          entityLabel: created.name,
          before: null,
          after: { id: created.id, name: created.name, slug: created.slug },
        });
        return created;
      });
      request.log.info({ categoryId: row.id, slug, by: me.id }, "category created");
      return reply.status(201).send({
        category: { ...row, productCount: 0, createdAt: row.createdAt.toISOString() },
      });
    },
  );

  app.delete(
    "/admin/categories/:id",
    {
      schema: {
        tags: ["admin"],
        summary: "Delete a category that no product uses",
        description: "Refused with 409 CATEGORY_IN_USE while any product, active or inactive, is in it.",
        params: idParams,
        response: { 200: z.object({ ok: z.literal(true) }) },
      },
    },
    async (request) => {
      const me = signedInUser(request);
      const { id } = request.params;
      const removed = await db.transaction(async (tx) => {
        const category = await lockCategory(tx, id);
        if (!category) throw categoryNotFound();
        const inUse = await countProductsInCategory(tx, category.slug);
        if (inUse > 0) throw new Conflict(categoryInUseMessage(inUse), "CATEGORY_IN_USE");
        await deleteCategory(tx, id);
        await recordAudit(tx, me, {
          action: "delete",
          entityType: "category",
          entityId: id,
          entityLabel: category.name,
          before: category,
          after: null,
        });
        return category;
      });
      request.log.info({ categoryId: id, slug: removed.slug, by: me.id }, "category deleted");
      return { ok: true as const };
    },
  );
};
