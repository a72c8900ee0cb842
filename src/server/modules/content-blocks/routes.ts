import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  contentBlockInputSchema,
  contentBlockKeySchema,
  contentBlockListSchema,
  contentBlockSchema,
  searchQuery,
} from "#domain/cms";
import { requireRole, signedInUser } from "#server/auth/guards";
import { listContentBlocks, saveContentBlock } from "#server/modules/content-blocks/service";

/**
 * The admins' side of the site's editable texts (visitors read them from GET /api/content-blocks).
 * Every block the site uses is listed, with its built-in text until someone saves one.
 */
export const contentBlockRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.database;
  app.addHook("onRequest", requireRole("admin"));

  app.get(
    "/admin/content-blocks",
    {
      schema: {
        tags: ["admin"],
        summary: "Every content block, known defaults included, ordered by key; search over the key",
        querystring: searchQuery,
        response: { 200: contentBlockListSchema },
      },
    },
    async (request) => {
      const items = await listContentBlocks(db, request.query.search);
      return { items };
    },
  );

  app.put(
    "/admin/content-blocks/:key",
    {
      schema: {
        tags: ["admin"],
        summary: "Save a content block's text (plain text, created when it has no row yet)",
        params: z.object({ key: contentBlockKeySchema }),
        body: contentBlockInputSchema,
        response: { 200: z.object({ block: contentBlockSchema }) },
      },
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
