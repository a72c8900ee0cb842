import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { requireRole, signedInUser } from "#server/auth/guards";
import { route } from "#server/http/route";
import { listContentBlocks, saveContentBlock } from "#server/modules/content-blocks/service";

/**
 * The admins' side of the site's editable texts (visitors read them from GET /api/content-blocks).
 * Every block the site uses is listed, with its built-in text until someone saves one.
 */
export const contentBlockRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;

  route(
    app,
    "GET /admin/content-blocks",
    {
      tags: ["admin"],
      summary: "Every content block, known defaults included, ordered by key; search over the key",
      onRequest: requireRole("admin"),
    },
    async (request) => {
      const items = await listContentBlocks(db, request.query.search);
      return { items };
    },
  );

  route(
    app,
    "PUT /admin/content-blocks/:key",
    {
      tags: ["admin"],
      summary: "Save a content block's text (plain text, created when it has no row yet)",
      onRequest: requireRole("admin"),
    },
    async (request) => {
      const me = signedInUser(request);
      const { key } = request.params;
      const { content } = request.body;
      const row = await saveContentBlock(db, me, key, content);
      request.log.info({ key, by: me.id }, "content block saved");
      return {
        block: {
          key: row.key,
          content: row.content,
          updatedAt: row.updatedAt.toISOString(),
          isDefault: false,
        },
      };
    },
  );
};
