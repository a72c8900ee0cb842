import { and, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { AdminCategory } from "#domain/category-admin";
import { auditLog } from "#server/db/schema/audit";
import { categories, products } from "#server/db/schema/catalog";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import { createTestApp } from "#server/test/app";
import { createClient, signedInClient } from "#server/test/client";

let t: Awaited<ReturnType<typeof createTestApp>>;
let admin: ReturnType<typeof createClient>;
beforeAll(async () => {
  t = await createTestApp({ seed: true });
  admin = await signedInClient(t.app, "admin@stackbay.test", DEMO_PASSWORD);
});
afterAll(() => t.close());

const list = async () => (await admin.get("/api/admin/categories")).json().items as AdminCategory[];
const remove = (client: ReturnType<typeof createClient>, id: string) =>
  client.request("DELETE", `/api/admin/categories/${id}`);
const auditRows = (entityId: string) =>
  t.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entityType, "category"), eq(auditLog.entityId, entityId)))
    .orderBy(auditLog.createdAt);

describe("admin categories", () => {
  test("lists every category with its product count, inactive products included", async () => {
    const [hardware] = await t.db
      .select({ id: products.id })
      .from(products)
      .where(eq(products.category, "hardware"))
      .limit(1);
    await t.db.update(products).set({ isActive: false }).where(eq(products.id, hardware!.id));
    const counted = await t.db
      .select({ slug: products.category, n: count() })
      .from(products)
      .groupBy(products.category);

    const res = await admin.get("/api/admin/categories");
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("private, no-store");
    const items = res.json().items as AdminCategory[];
    expect(items.map((c) => c.slug).sort()).toEqual(["apis", "hardware", "saas", "services", "software"]);
    for (const c of items) {
      expect(c.productCount).toBe(counted.find((row) => row.slug === c.slug)?.n ?? 0);
      expect(Object.keys(c).sort()).toEqual(["createdAt", "id", "name", "productCount", "slug"]);
    }
    expect(items.find((c) => c.slug === "hardware")?.productCount).toBeGreaterThan(0);
  });

  test("creating derives the slug, lists it first with 0 products, audits it and shows it publicly", async () => {
    const res = await admin.post("/api/admin/categories", { name: "  Cloud Storage & Backup!  " });
    expect(res.statusCode).toBe(201);
    const { category } = res.json();
    expect(category).toMatchObject({
      name: "Cloud Storage & Backup!",
      slug: "cloud-storage-backup",
      productCount: 0,
    });
    expect((await list())[0]).toEqual(category);

    const [audit] = await auditRows(category.id);
    expect(audit).toMatchObject({
      action: "create",
      actorEmail: "admin@stackbay.test",
      entityLabel: "Cloud Storage & Backup!",
      changes: {
        name: { before: null, after: "Cloud Storage & Backup!" },
        slug: { before: null, after: "cloud-storage-backup" },
      },
    });

    const publicList = (await t.app.inject({ url: "/api/categories" })).json() as { slug: string }[];
    expect(publicList.map((c) => c.slug)).toContain("cloud-storage-backup");
  });

  test("a name whose slug is taken is refused with 409 naming the slug", async () => {
    const res = await admin.post("/api/admin/categories", { name: "SAAS" });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      code: "CATEGORY_EXISTS",
      message: 'A category with the slug "saas" already exists. Choose a different name.',
    });
  });

  test.each([
    [{ name: "   " }, "Category name is required"],
    [{}, "Category name is required"],
    [{ name: "!!!" }, "Category name must contain at least one letter or digit"],
    [{ name: "n".repeat(61) }, "at most 60 characters"],
  ])("%j is refused with 400", async (body, message) => {
    const before = (await list()).length;
    const res = await admin.post("/api/admin/categories", body);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe("VALIDATION_ERROR");
    expect(res.json().message).toContain(message);
    expect((await list()).length).toBe(before);
  });

  test("deleting an unused category removes it and audits the deletion", async () => {
    const { category } = (await admin.post("/api/admin/categories", { name: "Short Lived" })).json();
    const res = await remove(admin, category.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect((await list()).some((c) => c.id === category.id)).toBe(false);
    expect(await t.db.select().from(categories).where(eq(categories.id, category.id))).toEqual([]);

    const rows = await auditRows(category.id);
    expect(rows.map((r) => r.action)).toEqual(["create", "delete"]);
    expect(rows[1]).toMatchObject({
      entityLabel: "Short Lived",
      changes: { name: { before: "Short Lived", after: null }, slug: { before: "short-lived", after: null } },
    });
    expect((await remove(admin, category.id)).statusCode).toBe(404);
  });

  test("a category with products is not deleted; the message says how many", async () => {
    const saas = (await list()).find((c) => c.slug === "saas");
    expect(saas?.productCount).toBeGreaterThan(1);
    const res = await remove(admin, saas!.id);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      code: "CATEGORY_IN_USE",
      message: `This category still has ${saas!.productCount} products. Move them to another category first.`,
    });
    expect((await list()).find((c) => c.slug === "saas")).toEqual(saas);
    expect(await auditRows(saas!.id)).toEqual([]);
  });

  test("only inactive products still block the delete", async () => {
    const { category } = (await admin.post("/api/admin/categories", { name: "Retired Gear" })).json();
    const [product] = await t.db.select({ id: products.id }).from(products).limit(1);
    await t.db
      .update(products)
      .set({ category: category.slug, isActive: false })
      .where(eq(products.id, product!.id));
    const res = await remove(admin, category.id);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe("This category still has 1 product. Move it to another category first.");
  });

  test("an unknown id is 404, a malformed one 400", async () => {
    const unknown = await remove(admin, "00000000-0000-4000-8000-000000000000");
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ code: "CATEGORY_NOT_FOUND", message: "Category not found." });
    expect((await remove(admin, "not-an-id")).statusCode).toBe(400);
  });

  test("buyers and sellers get 403, strangers 401, and nothing changes", async () => {
    const saas = (await list()).find((c) => c.slug === "saas")!;
    for (const email of ["buyer@stackbay.test", "seller@stackbay.test"]) {
      const client = await signedInClient(t.app, email, DEMO_PASSWORD);
      expect((await client.get("/api/admin/categories")).statusCode).toBe(403);
      const created = await client.post("/api/admin/categories", { name: "Sneaky" });
      expect(created.statusCode).toBe(403);
      expect(created.json().code).toBe("FORBIDDEN");
      expect((await remove(client, saas.id)).statusCode).toBe(403);
    }
    const stranger = createClient(t.app);
    expect((await stranger.get("/api/admin/categories")).statusCode).toBe(401);
    expect((await stranger.post("/api/admin/categories", { name: "Sneaky" })).statusCode).toBe(401);
    expect((await list()).some((c) => c.slug === "sneaky")).toBe(false);
  });
});
