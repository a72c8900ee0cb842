import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  type ContentBlock,
  contentBlockInputSchema,
  contentBlockKeySchema,
  contentBlockListSchema,
  contentBlockSchema,
  searchQuery,
} from "#domain/cms";
import { contentBlockRegistry, isKnownContentBlock } from "#domain/content-blocks";
import { requireRole, signedInUser } from "#server/auth/guards";
import { recordAudit } from "#server/lib/audit";
import {
  listSavedContentBlocks,
  lockContentBlock,
  upsertContentBlock,
} from "#server/modules/content-blocks/repository";

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
      const rows = await listSavedContentBlocks(db);
      const blocks = new Map<string, ContentBlock>();
      for (const [key, { defaultText }] of Object.entries(contentBlockRegistry)) {
        blocks.set(key, { key, content: defaultText, updatedAt: null, isDefault: true });
      }
      for (const row of rows) {
        blocks.set(row.key, {
          key: row.key,
          content: row.content,
          updatedAt: row.updatedAt.toISOString(),
          isDefault: false,
        });
      }
      const needle = request.query.search?.toLowerCase();
      const items = [...blocks.values()]
        .filter((block) => !needle || block.key.toLowerCase().includes(needle))
        .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
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
      const row = await db.transaction(async (tx) => {
        const before = await lockContentBlock(tx, key);
        const saved = await upsertContentBlock(tx, key, content);
        await recordAudit(tx, me, {
          action: before ? "update" : "create",
          entityType: "content_block",
          entityId: key,
          entityLabel: isKnownContentBlock(key) ? contentBlockRegistry[key].label : key,
          before: before ? { content: before.content } : null,
          after: { content: saved.content },
        });
        return saved;
      });
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
