import { categoryInUseMessage } from "#domain/category-admin";
import { slugify } from "#domain/slug";
import type { Database } from "#server/db/client";
import { Conflict, NotFound } from "#server/errors";
import { type AuditActor, recordAudit } from "#server/lib/audit";
import {
  type CategoryRecord,
  countProductsInCategory,
  deleteCategory,
  insertCategory,
  lockCategory,
} from "#server/modules/categories/repository";

/** Adds a category with the slug derived from its name; the row and its audit entry are written together. */
export async function createCategory(db: Database, actor: AuditActor, name: string) {
  const slug = slugify(name);
  return db.transaction(async (tx) => {
    const created = await insertCategory(tx, { name, slug });
    if (!created) {
      throw new Conflict(
        `A category with the slug "${slug}" already exists. Choose a different name.`,
        "CATEGORY_EXISTS",
      );
    }
    await recordAudit(tx, actor, {
      action: "create",
      entityType: "category",
      entityId: created.id,
      entityLabel: created.name,
      before: null,
      after: { id: created.id, name: created.name, slug: created.slug },
    });
    return created;
  });
}

/** Deletes a category no product uses (409 CATEGORY_IN_USE otherwise), audited; answers the removed row. */
export async function removeCategory(db: Database, actor: AuditActor, id: string): Promise<CategoryRecord> {
  return db.transaction(async (tx) => {
    const category = await lockCategory(tx, id);
    if (!category) throw new NotFound("Category not found.", "CATEGORY_NOT_FOUND");
    const inUse = await countProductsInCategory(tx, category.slug);
    if (inUse > 0) throw new Conflict(categoryInUseMessage(inUse), "CATEGORY_IN_USE");
    await deleteCategory(tx, id);
    await recordAudit(tx, actor, {
      action: "delete",
      entityType: "category",
      entityId: id,
      entityLabel: category.name,
      before: category,
      after: null,
    });
    return category;
  });
}
