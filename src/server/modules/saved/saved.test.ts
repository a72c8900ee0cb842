import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { SavedItem } from "#domain/catalog-schemas";
import { products } from "#server/db/schema/catalog";
import { savedItems } from "#server/db/schema/orders";
import { DEMO_PASSWORD, demoProductId } from "#server/db/seed/demo";
import { createTestApp } from "#server/test/app";
import { createClient, createVerifiedAccount, signedInClient } from "#server/test/client";

let t: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  t = await createTestApp({ seed: true });
});
afterAll(() => t.close());

type Client = ReturnType<typeof createClient>;
const save = (c: Client, id: string) => c.request("PUT", `/api/saved/${id}`);
const unsave = (c: Client, id: string) => c.request("DELETE", `/api/saved/${id}`);
const check = async (c: Client, id: string) => (await c.get(`/api/saved/${id}`)).json().saved as boolean;
const listIds = async (c: Client) =>
  ((await c.get("/api/saved")).json().items as { product: { id: string } }[]).map((i) => i.product.id);

const crm = demoProductId("nimbus-crm-pro");
const helpdesk = demoProductId("corvane-helpdesk");
const payroll = demoProductId("tidewell-payroll-cloud");
const missing = "00000000-0000-4000-8000-000000000000";

describe("saved products", () => {
  test("save, list newest first, check, unsave", async () => {
    const buyer = await signedInClient(t.app, "buyer@stackbay.test", DEMO_PASSWORD);
    expect(await listIds(buyer)).toEqual([]);
    expect(await check(buyer, crm)).toBe(false);

    const saved = await save(buyer, crm);
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ saved: true });
    expect(saved.headers["cache-control"]).toBe("private, no-store");
    expect((await save(buyer, helpdesk)).statusCode).toBe(200);

    const list = await buyer.get("/api/saved");
    expect(list.statusCode).toBe(200);
    expect(list.headers["cache-control"]).toBe("private, no-store");
    const { items } = list.json();
    expect(items.map((i: { product: { id: string } }) => i.product.id)).toEqual([helpdesk, crm]);
    expect(items[1]).toEqual({
      savedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      available: true,
      product: expect.objectContaining({ id: crm, name: "Nimbus CRM Pro", price: expect.any(Number) }),
    });
    expect(Object.keys(items[1].product).sort()).toEqual(
      [
        "category",
        "discountLabel",
        "discountPercentage",
        "hasDiscount",
        "id",
        "imageUrl",
        "name",
        "originalPrice",
        "payAsYouGo",
        "price",
        "pricingUnit",
        "rating",
        "reviewsCount",
        "vendor",
        "vendorSlug",
      ].sort(),
    );
    expect(await check(buyer, crm)).toBe(true);

    const removed = await unsave(buyer, crm);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toEqual({ saved: false });
    expect(await check(buyer, crm)).toBe(false);
    expect(await listIds(buyer)).toEqual([helpdesk]);
    expect((await unsave(buyer, crm)).json()).toEqual({ saved: false });

    await unsave(buyer, helpdesk);
    expect(await listIds(buyer)).toEqual([]);
  });

  test("saving twice is harmless: one row, one list entry", async () => {
    const seller = await signedInClient(t.app, "seller@stackbay.test", DEMO_PASSWORD);
    expect((await save(seller, payroll)).json()).toEqual({ saved: true });
    expect((await save(seller, payroll)).json()).toEqual({ saved: true });
    const rows = await t.db.select().from(savedItems).where(eq(savedItems.productId, payroll));
    expect(rows).toHaveLength(1);
    expect(await listIds(seller)).toEqual([payroll]);
    await unsave(seller, payroll);
  });

  test("visitors get 401 on every call", async () => {
    const visitor = createClient(t.app);
    for (const res of [
      await visitor.get("/api/saved"),
      await visitor.get(`/api/saved/${crm}`),
      await save(visitor, crm),
      await unsave(visitor, crm),
    ]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ code: "UNAUTHORIZED", message: "User must be authenticated" });
    }
    expect(await t.db.select().from(savedItems).where(eq(savedItems.productId, crm))).toEqual([]);
  });

  test("a user never sees or changes another user's saved items", async () => {
    const owner = await signedInClient(t.app, "reseller@stackbay.test", DEMO_PASSWORD);
    const other = await createVerifiedAccount(t.app, t.dataDir, { email: `saved-${Date.now()}@example.com` });
    const stranger = await signedInClient(t.app, other.email, other.password);

    await save(owner, crm);
    expect(await listIds(stranger)).toEqual([]);
    expect(await check(stranger, crm)).toBe(false);

    // The stranger's unsave only touches their own (empty) list.
    expect((await unsave(stranger, crm)).json()).toEqual({ saved: false });
    expect(await listIds(owner)).toEqual([crm]);

    // Saving the same product is per user.
    await save(stranger, crm);
    await unsave(owner, crm);
    expect(await listIds(owner)).toEqual([]);
    expect(await listIds(stranger)).toEqual([crm]);
    await unsave(stranger, crm);
  });

  test("unknown or inactive products cannot be saved, and malformed ids are refused", async () => {
    const buyer = await signedInClient(t.app, "buyer@stackbay.test", DEMO_PASSWORD);
    const unknown = await save(buyer, missing);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: "PRODUCT_NOT_FOUND" });

    const inactive = demoProductId("latticepoint-bi-studio");
    await t.db.update(products).set({ isActive: false }).where(eq(products.id, inactive));
    try {
      const refused = await save(buyer, inactive);
      expect(refused.statusCode).toBe(404);
      expect(refused.json()).toMatchObject({ code: "PRODUCT_NOT_FOUND" });
    } finally {
      await t.db.update(products).set({ isActive: true }).where(eq(products.id, inactive));
    }

    for (const res of [
      await buyer.get("/api/saved/not-a-uuid"),
      await save(buyer, "not-a-uuid"),
      await unsave(buyer, "123"),
    ]) {
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: "VALIDATION_ERROR" });
    }
  });

  test("a product taken off sale stays listed as unavailable and is available again when reactivated", async () => {
    const admin = await signedInClient(t.app, "admin@stackbay.test", DEMO_PASSWORD);
    const quill = demoProductId("quillstone-contracts");
    await save(admin, crm);
    await save(admin, quill);
    expect(await listIds(admin)).toEqual([quill, crm]);

    await t.db.update(products).set({ isActive: false }).where(eq(products.id, quill));
    try {
      const { items } = (await admin.get("/api/saved")).json() as { items: SavedItem[] };
      expect(items.map((i) => [i.product.id, i.available])).toEqual([
        [quill, false],
        [crm, true],
      ]);
    } finally {
      await t.db.update(products).set({ isActive: true }).where(eq(products.id, quill));
    }
    expect(await listIds(admin)).toEqual([quill, crm]);
    await unsave(admin, crm);
    await unsave(admin, quill);
  });
});
