import type { FastifyPluginAsyncZod, ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  type PageValues,
  pageInputSchema,
  pageListSchema,
  pageSchema,
  publicPageSchema,
  searchQuery,
} from "#domain/cms";
import { requireRole, signedInUser } from "#server/auth/guards";
import type { Database, Transaction } from "#server/db/client";
import { Conflict, NotFound, ValidationError } from "#server/errors";
import { recordAudit } from "#server/lib/audit";
import { sanitizePageHtml } from "#server/lib/sanitize";
import {
  deletePage,
  findActivePage,
  findPage,
  insertPage,
  listPages,
  type PageColumns,
  pageSnapshot,
  slugTaken,
  toPage,
  toStoredSeoMeta,
  updatePage,
} from "#server/modules/pages/repository";

const pageAnswer = z.object({ page: pageSchema });
// Any text is accepted so a malformed id answers 404 like an unknown one (the edit screen shows not-found).
const idParams = z.object({ id: z.string().max(64) });
const notFound = () => new NotFound("Page not found.", "PAGE_NOT_FOUND");

function slugConflict(slug: string) {
  return new Conflict(`A page with the slug '${slug}' already exists.`, "PAGE_SLUG_TAKEN");
}

/** A concurrent save can pass the slug check and still hit the unique index; it is the same conflict. */
function isUniqueViolation(error: unknown): boolean {
  const code = (e: unknown) => (e as { code?: unknown } | null)?.code;
  return code(error) === "23505" || code((error as { cause?: unknown } | null)?.cause) === "23505";
}

/**
 * The columns to store for a form's values. The HTML is sanitised on every save, so what is stored is
 * what visitors get; content that is nothing but unsafe markup is refused rather than saved empty.
 */
function pageColumns(values: PageValues): PageColumns {
  const content = sanitizePageHtml(values.content);
  if (!content) {
    const message = "Content is required: nothing is left once unsafe HTML such as scripts is removed.";
    throw new ValidationError(message, [{ path: "content", message }]);
  }
  return {
    title: values.title,
    slug: values.slug,
    content,
    ...(values.isActive === undefined ? {} : { isActive: values.isActive }),
    ...(values.seoMeta === undefined ? {} : { seoMeta: toStoredSeoMeta(values.seoMeta) }),
  };
}

async function assertSlugFree(db: Database | Transaction, slug: string, exceptId?: string) {
  if (await slugTaken(db, slug, exceptId)) throw slugConflict(slug);
}

/** Content pages: the public page by slug, and the admins' page management. */
export const pageRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;

  const inTransaction = async <T>(slug: string, work: (tx: Transaction) => Promise<T>): Promise<T> => {
    try {
      return await db.transaction(work);
    } catch (error) {
      throw isUniqueViolation(error) ? slugConflict(slug) : error;
    }
  };

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
      if (!row) throw notFound();
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
        const columns = pageColumns(request.body);
        const row = await inTransaction(columns.slug, async (tx) => {
          await assertSlugFree(tx, columns.slug);
          // The spec shows both defaults; a new page starts as a draft so nothing half-written goes public
          // by accident. Publishing is an explicit choice (the form's "Active (published)" box).
          const created = await insertPage(tx, columns);
          await recordAudit(tx, me, {
            action: "create",
            entityType: "page",
            entityId: created.id,
            entityLabel: created.title,
            before: null,
            after: pageSnapshot(created),
          });
          return created;
        });
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
        const { id } = request.params;
        const row = z.uuid().safeParse(id).success ? await findPage(db, id) : undefined;
        if (!row) throw notFound();
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
        if (!z.uuid().safeParse(id).success) throw notFound();
        const columns = pageColumns(request.body);
        const row = await inTransaction(columns.slug, async (tx) => {
          const before = await findPage(tx, id, { lock: true });
          if (!before) throw notFound();
          await assertSlugFree(tx, columns.slug, id);
          const after = await updatePage(tx, id, columns);
          if (!after) throw notFound();
          await recordAudit(tx, me, {
            action: "update",
            entityType: "page",
            entityId: id,
            entityLabel: after.title,
            before: pageSnapshot(before),
            after: pageSnapshot(after),
          });
          return after;
        });
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
        if (!z.uuid().safeParse(id).success) throw notFound();
        await db.transaction(async (tx) => {
          const deleted = await deletePage(tx, id);
          if (!deleted) throw notFound();
          await recordAudit(tx, me, {
            action: "delete",
            entityType: "page",
            entityId: id,
            entityLabel: deleted.title,
            before: pageSnapshot(deleted),
            after: null,
          });
        });
        request.log.info({ pageId: id, by: me.id }, "page deleted");
        return { ok: true as const };
      },
    );
  });
};
