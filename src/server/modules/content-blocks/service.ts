import type { ContentBlock } from "#domain/cms";
import { contentBlockRegistry, isKnownContentBlock } from "#domain/content-blocks";
import type { Database } from "#server/db/client";
import { type AuditActor, recordAudit } from "#server/lib/audit";
import {
  listSavedContentBlocks,
  lockContentBlock,
  upsertContentBlock,
} from "#server/modules/content-blocks/repository";

/** Every block the site uses, its saved text or the built-in one, by key; `search` matches the key. */
export async function listContentBlocks(db: Database, search: string | undefined): Promise<ContentBlock[]> {
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
  const needle = search?.toLowerCase();
  return [...blocks.values()]
    .filter((block) => !needle || block.key.toLowerCase().includes(needle))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** Saves a block's text (created when it has no row yet); the row and its audit entry are written together. */
export async function saveContentBlock(db: Database, actor: AuditActor, key: string, content: string) {
  return db.transaction(async (tx) => {
    const before = await lockContentBlock(tx, key);
    const saved = await upsertContentBlock(tx, key, content);
    await recordAudit(tx, actor, {
      action: before ? "update" : "create",
      entityType: "content_block",
      entityId: key,
      entityLabel: isKnownContentBlock(key) ? contentBlockRegistry[key].label : key,
      before: before ? { content: before.content } : null,
      after: { content: saved.content },
    });
    return saved;
  });
}
