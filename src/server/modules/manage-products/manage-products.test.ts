import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { EditableProduct, ManagedProductList } from "#domain/product-admin";
import { auditLog } from "#server/db/schema/audit";
import { user } from "#server/db/schema/auth";
import { products } from "#server/db/schema/catalog";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import { LISTING_WRITE_LIMIT } from "#server/modules/manage-products/routes";
import { createTestApp } from "#server/test/app";
import { createClient, createVerifiedAccount, signedInClient } from "#server/test/client";

type Client = ReturnType<typeof createClient>;

let t: Awaited<ReturnType<typeof createTestApp>>;
let admin: Client;
let seller: Client;
let otherSeller: Client;
let buyer: Client;
let sellerId: string;

beforeAll(async () => {
  t = await createTestApp({ seed: true });
  admin = await signedInClient(t.app, "admin@stackbay.test", DEMO_PASSWORD);
  seller = await signedInClient(t.app, "seller@stackbay.test", DEMO_PASSWORD);
  buyer = await signedInClient(t.app, "buyer@stackbay.test", DEMO_PASSWORD);
  const other = await createVerifiedAccount(t.app, t.dataDir, { email: "olga@other-seller.example" });
  await t.db.update(user).set({ isSeller: true }).where(eq(user.email, other.email));
  otherSeller = await signedInClient(t.app, other.email, other.password);
  const [row] = await t.db.select({ id: user.id }).from(user).where(eq(user.email, "seller@stackbay.test"));
  if (!row) throw new Error("demo seller missing");
  sellerId = row.id;
});
afterAll(() => t.close());

const input = (overrides: Record<string, unknown> = {}) => ({
  name: "Quasar Ledger",
  vendor: "Quasar Labs",
  description: "Double-entry bookkeeping for small teams.",
  category: "software",
  price: 129.99,
  originalPrice: 159,
  discountLabel: "Launch offer",
  discountPercentage: 18,
  features: ["Bank feeds", "Multi-currency"],
  specifications: [{ key: "Platform", value: "Web, macOS" }],
  images: ["/uploads/products/quasar-1.webp", "/uploads/products/quasar-2.webp"],
  imageUrl: "/uploads/products/quasar-2.webp",
  isResellable: true,
  ...overrides,
});

const del = (client: Client, id: string) => client.request("DELETE", `/api/manage/products/${id}`);
const restore = (client: Client, id: string) => client.post(`/api/manage/products/${id}/restore`);

async function create(client: Client, overrides: Record<string, unknown> = {}) {
  const res = await client.post("/api/manage/products", input(overrides));
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { product: EditableProduct }).product;
}

async function auditRows(entityId: string) {
  return t.db.select().from(auditLog).where(eq(auditLog.entityId, entityId)).orderBy(asc(auditLog.createdAt));
}

const publicStatus = async (id: string) =>
  (await t.app.inject({ method: "GET", url: `/api/products/${id}` })).statusCode;

describe("admin product management", () => {
  test("create, read, replace, deactivate and restore, each audited, the public catalogue following", async () => {
    const created = await create(admin);
    expect(created).toMatchObject({
      name: "Quasar Ledger",
      vendor: "Quasar Labs",
      category: "software",
      price: 129.99,
      originalPrice: 159,
      rating: null,
      discountLabel: "Launch offer",
      discountPercentage: 18,
      hasDiscount: true,
      features: ["Bank feeds", "Multi-currency"],
      specifications: [{ key: "Platform", value: "Web, macOS" }],
      images: ["/uploads/products/quasar-1.webp", "/uploads/products/quasar-2.webp"],
      imageUrl: "/uploads/products/quasar-2.webp",
      isActive: true,
      isResellable: true,
      sellerId: null,
      reviewsCount: 0,
    });
    const { id } = created;

    const got = await admin.get(`/api/manage/products/${id}`);
    expect(got.statusCode).toBe(200);
    expect(got.headers["cache-control"]).toBe("private, no-store");
    expect(got.json().product).toEqual(created);

    const publicDetail = await t.app.inject({ method: "GET", url: `/api/products/${id}` });
    expect(publicDetail.statusCode).toBe(200);
    expect(publicDetail.json()).toMatchObject({
      price: 129.99,
      features: [{ feature: "Bank feeds" }, { feature: "Multi-currency" }],
      specifications: [{ key: "Platform", value: "Web, macOS" }],
    });

    const patched = await admin.patch(
      `/api/manage/products/${id}`,
      input({
        price: 99,
        discountLabel: "",
        features: ["Multi-currency", "Payroll"],
        specifications: [],
        images: ["/uploads/products/quasar-1.webp"],
        imageUrl: null,
      }),
    );
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().product).toMatchObject({
      price: 99,
      discountLabel: null,
      hasDiscount: false,
      features: ["Multi-currency", "Payroll"],
      specifications: [],
      images: ["/uploads/products/quasar-1.webp"],
      imageUrl: "/uploads/products/quasar-1.webp",
      createdAt: created.createdAt,
    });
    expect((await t.app.inject({ method: "GET", url: `/api/products/${id}` })).json()).toMatchObject({
      price: 99,
      features: [{ feature: "Multi-currency" }, { feature: "Payroll" }],
      specifications: [],
    });

    const deleted = await del(admin, id);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json().product.isActive).toBe(false);
    expect(await publicStatus(id)).toBe(404);
    const search = await t.app.inject({ method: "GET", url: "/api/products?search=quasar" });
    expect(search.json().total).toBe(0);
    // Still there for its managers.
    expect((await admin.get(`/api/manage/products/${id}`)).json().product.isActive).toBe(false);

    const restored = await restore(admin, id);
    expect(restored.statusCode).toBe(200);
    expect(restored.json().product.isActive).toBe(true);
    expect(await publicStatus(id)).toBe(200);
    expect((await t.app.inject({ method: "GET", url: "/api/products?search=quasar" })).json().total).toBe(1);

    const trail = await auditRows(id);
    expect(trail.map((r) => [r.action, r.entityType, r.actorEmail, r.entityLabel])).toEqual([
      ["create", "product", "admin@stackbay.test", "Quasar Ledger"],
      ["update", "product", "admin@stackbay.test", "Quasar Ledger"],
      ["delete", "product", "admin@stackbay.test", "Quasar Ledger"],
      ["restore", "product", "admin@stackbay.test", "Quasar Ledger"],
    ]);
    const [createRow, updateRow, deleteRow, restoreRow] = trail;
    expect(createRow?.changes.price).toEqual({ before: null, after: 129.99 });
    expect(createRow?.changes.features).toEqual({ before: null, after: ["Bank feeds", "Multi-currency"] });
    expect(updateRow?.changes.price).toEqual({ before: 129.99, after: 99 });
    expect(updateRow?.changes.features).toEqual({
      before: ["Bank feeds", "Multi-currency"],
      after: ["Multi-currency", "Payroll"],
    });
    expect(updateRow?.changes.specifications).toEqual({
      before: [{ key: "Platform", value: "Web, macOS" }],
      after: [],
    });
    expect(updateRow?.changes.images?.after).toEqual(["/uploads/products/quasar-1.webp"]);
    expect(updateRow?.changes).not.toHaveProperty("name");
    expect(deleteRow?.changes).toEqual({ isActive: { before: true, after: false } });
    expect(restoreRow?.changes).toEqual({ isActive: { before: false, after: true } });

    // Deleting an inactive product again, or restoring an active one, changes and records nothing.
    expect((await restore(admin, id)).statusCode).toBe(200);
    expect(await auditRows(id)).toHaveLength(4);
  });

  test("every seeded product saves back unchanged (sub-cent API prices included) without an audit entry", async () => {
    const seeded = await t.db.select({ id: products.id, price: products.price }).from(products);
    expect(seeded.some((p) => Number(p.price) < 0.01)).toBe(true);
    const updates = () => t.db.select().from(auditLog).where(eq(auditLog.action, "update"));
    const before = (await updates()).length;
    for (const { id } of seeded) {
      const { product } = (await admin.get(`/api/manage/products/${id}`)).json() as {
        product: EditableProduct;
      };
      const saved = await admin.patch(`/api/manage/products/${id}`, product);
      expect(saved.statusCode, `${product.name}: ${saved.body}`).toBe(200);
      const { updatedAt: _before, ...was } = product;
      const { updatedAt: _after, ...now } = saved.json().product as EditableProduct;
      expect(now).toEqual(was);
    }
    expect(await updates()).toHaveLength(before);
  });

  test("the seller's commission rate: 10% unless set, stored as a rate, 0-50%", async () => {
    const plain = await create(admin, { name: "Default Commission" });
    expect(plain.commissionPercent).toBe(10);
    const set = await create(admin, { name: "Generous Commission", commissionPercent: 12.5 });
    expect(set.commissionPercent).toBe(12.5);
    const [row] = await t.db.select().from(products).where(eq(products.id, set.id));
    expect(row?.commissionRate).toBe("0.1250");
  });

  test("body fields outside the schema (owner, flags, ids, dates) are ignored", async () => {
    const sneaky = await admin.post(
      "/api/manage/products",
      input({
        name: "Mass Assignment Probe",
        sellerId,
        isAdmin: true,
        id: "00000000-0000-4000-8000-000000000001",
        createdAt: "2001-01-01T00:00:00.000Z",
        searchText: "zzz",
        reviewsCount: 900,
        rating: 4.9,
        hasDiscount: false,
      }),
    );
    expect(sneaky.statusCode).toBe(201);
    const product = sneaky.json().product as EditableProduct;
    expect(product.id).not.toBe("00000000-0000-4000-8000-000000000001");
    expect(product.sellerId).toBeNull();
    expect(product.reviewsCount).toBe(0);
    // Ratings come only from reviews: a typed-in one is ignored.
    expect(product.rating).toBeNull();
    expect(product.hasDiscount).toBe(true);
    expect(product.createdAt.startsWith("2001")).toBe(false);

    // A seller cannot hand their product to someone else, nor take it over on edit.
    const own = await create(seller, { name: "Seller Probe" });
    const moved = await seller.patch(
      `/api/manage/products/${own.id}`,
      input({ name: "Seller Probe", sellerId: null }),
    );
    expect(moved.statusCode).toBe(200);
    expect(moved.json().product.sellerId).toBe(sellerId);
    const [row] = await t.db.select().from(products).where(eq(products.id, own.id));
    expect(row?.sellerId).toBe(sellerId);
    const [me] = await t.db.select({ isAdmin: user.isAdmin }).from(user).where(eq(user.id, sellerId));
    expect(me?.isAdmin).toBe(false);
  });

  test("bad input is refused with clear messages and nothing is written", async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ price: -1 }, "price", "Price must be 0 or more"],
      [
        { images: ["https://evil.example/x.png"], imageUrl: null },
        "images.0",
        "Images must be uploaded to Stackbay",
      ],
      [
        { images: ["/uploads/../etc/passwd"], imageUrl: null },
        "images.0",
        "Images must be uploaded to Stackbay",
      ],
      [{ name: "  " }, "name", "Product name is required"],
      [{ commissionPercent: 60 }, "commissionPercent", "Commission must be between 0 and 50%"],
    ];
    for (const [overrides, path, message] of cases) {
      const res = await admin.post("/api/manage/products", input({ name: "Refused", ...overrides }));
      expect(res.statusCode, JSON.stringify(overrides)).toBe(400);
      expect(res.json().code).toBe("VALIDATION_ERROR");
      expect(res.json().details).toContainEqual({ path, message });
    }
    const unknown = await admin.post("/api/manage/products", input({ name: "Refused", category: "toys" }));
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({
      code: "VALIDATION_ERROR",
      message: "Unknown category 'toys'. Please select one of the categories.",
      details: [
        { path: "category", message: "Unknown category 'toys'. Please select one of the categories." },
      ],
    });
    expect(await t.db.select().from(products).where(eq(products.name, "Refused"))).toEqual([]);

    const { id } = await create(admin, { name: "Kept As Is" });
    const badPatch = await admin.patch(
      `/api/manage/products/${id}`,
      input({ name: "Kept As Is", category: "toys" }),
    );
    expect(badPatch.statusCode).toBe(400);
    expect((await admin.get(`/api/manage/products/${id}`)).json().product.category).toBe("software");
    expect(await auditRows(id)).toHaveLength(1);

    expect((await admin.get("/api/manage/products/not-a-uuid")).statusCode).toBe(400);
    expect((await admin.get("/api/manage/products/00000000-0000-4000-8000-000000000000")).statusCode).toBe(
      404,
    );
  });

  test("the list: newest first, search over name, vendor and description, status filter, paging", async () => {
    const [a, b, c] = [
      await create(admin, { name: "Zephyr Alpha Suite", vendor: "Nimbus", description: "plain" }),
      await create(admin, { name: "Plain Tool", vendor: "ZEPHYR Works", description: "plain" }),
      await create(admin, { name: "Other Tool", vendor: "Nimbus", description: "Built for zephyr fans" }),
    ];
    await del(admin, b.id);

    const list = async (query: string) =>
      (await admin.get(`/api/manage/products${query}`)).json() as ManagedProductList;
    const zephyr = await list("?search=zephyr");
    expect(zephyr.items.map((p) => p.name)).toEqual([c.name, b.name, a.name]);
    expect(zephyr).toMatchObject({ total: 3, page: 1, pageSize: 25 });
    expect(zephyr.items[1]).toMatchObject({
      id: b.id,
      category: "software",
      categoryName: "Software Licenses",
      price: 129.99,
      originalPrice: 159,
      vendor: "ZEPHYR Works",
      imageUrl: "/uploads/products/quasar-2.webp",
      isActive: false,
      isResellable: true,
      sellerId: null,
    });
    expect((await list("?search=zephyr&status=active")).items.map((p) => p.id)).toEqual([c.id, a.id]);
    expect((await list("?search=zephyr&status=inactive")).items.map((p) => p.id)).toEqual([b.id]);
    // Accents and case are ignored, as in the public search.
    expect((await list("?search=ZÉPHYR%20Álpha")).items.map((p) => p.id)).toEqual([a.id]);
    // Wildcards are text, not patterns.
    expect((await list("?search=%25")).total).toBe(0);

    // Every seeded product and all the ones made here: more than one page.
    const all = await list("");
    expect(all.items).toHaveLength(25);
    expect(all.total).toBeGreaterThan(25);
    const second = await list("?page=2");
    expect(second.items[0]?.id).not.toBe(all.items[0]?.id);
    // An admin's own products (admins' have no seller) are none.
    expect((await list("?mine=true")).total).toBe(0);
    expect((await admin.get("/api/manage/products?status=gone")).statusCode).toBe(400);
  });
});

describe("sellers manage only their own products", () => {
  test("a seller's product is theirs, sold under their storefront's name whatever vendor is typed", async () => {
    const product = await create(seller, { name: "Samir's Widget", vendor: "" });
    expect(product).toMatchObject({ sellerId, vendor: "Cinderpath Security", isActive: true });
    const trail = await auditRows(product.id);
    expect(trail.map((r) => [r.action, r.actorEmail])).toEqual([["create", "seller@stackbay.test"]]);

    const withVendor = await create(seller, { name: "Branded Widget", vendor: "Samir & Co" });
    expect(withVendor.vendor).toBe("Cinderpath Security");
    const edited = await seller.patch(
      `/api/manage/products/${withVendor.id}`,
      input({ name: "Branded Widget", vendor: "Samir & Co" }),
    );
    expect(edited.json().product.vendor).toBe("Cinderpath Security");
  });

  test("another seller cannot see, read, change, delete or restore it: 404 as if it did not exist", async () => {
    const product = await create(seller, { name: "Private Gadget" });
    const inactive = await create(seller, { name: "Private Inactive Gadget" });
    await del(seller, inactive.id);

    for (const target of [product, inactive]) {
      const url = `/api/manage/products/${target.id}`;
      expect((await otherSeller.get(url)).statusCode).toBe(404);
      const patch = await otherSeller.patch(url, input({ name: "Hijacked" }));
      expect(patch.statusCode).toBe(404);
      expect(patch.json()).toEqual({ code: "PRODUCT_NOT_FOUND", message: "Product not found." });
      expect((await del(otherSeller, target.id)).statusCode).toBe(404);
      expect((await restore(otherSeller, target.id)).statusCode).toBe(404);
    }
    expect((await seller.get(`/api/manage/products/${product.id}`)).json().product.name).toBe(
      "Private Gadget",
    );
    expect((await seller.get(`/api/manage/products/${product.id}`)).json().product.isActive).toBe(true);
    expect((await seller.get(`/api/manage/products/${inactive.id}`)).json().product.isActive).toBe(false);
    expect(await auditRows(product.id)).toHaveLength(1);

    for (const query of ["", "?status=inactive", "?search=private", "?mine=false"]) {
      const list = (await otherSeller.get(`/api/manage/products${query}`)).json() as ManagedProductList;
      expect(
        list.items.some((p) => p.sellerId === sellerId),
        query,
      ).toBe(false);
    }

    // Nor admin-listed products (no seller).
    const stackbays = await create(admin, { name: "Stackbay Own" });
    expect((await seller.get(`/api/manage/products/${stackbays.id}`)).statusCode).toBe(404);
    expect((await seller.patch(`/api/manage/products/${stackbays.id}`, input())).statusCode).toBe(404);
  });

  test("a seller's list holds only their products, inactive ones too; an admin edits any seller's", async () => {
    const hidden = await create(seller, { name: "Seasonal Bundle" });
    await del(seller, hidden.id);
    const mine = (await seller.get("/api/manage/products?search=seasonal")).json() as ManagedProductList;
    expect(mine.items.map((p) => [p.id, p.isActive])).toEqual([[hidden.id, false]]);
    const everything = (await seller.get("/api/manage/products?mine=false")).json() as ManagedProductList;
    expect(everything.items.every((p) => p.sellerId === sellerId)).toBe(true);
    const seededOwn = await t.db
      .select({ id: products.id })
      .from(products)
      .where(and(eq(products.sellerId, sellerId)));
    expect(everything.total).toBe(seededOwn.length);

    // The seller restores it; an admin can change it too, and it stays the seller's.
    expect((await restore(seller, hidden.id)).json().product.isActive).toBe(true);
    const byAdmin = await admin.patch(
      `/api/manage/products/${hidden.id}`,
      input({ name: "Seasonal Bundle", price: 5 }),
    );
    expect(byAdmin.json().product).toMatchObject({ price: 5, sellerId });
  });

  test("buyers are refused (403), strangers asked to sign in (401), even with a bad body", async () => {
    const id = "00000000-0000-4000-8000-000000000000";
    const calls: [string, string, object?][] = [
      ["GET", "/api/manage/products"],
      ["POST", "/api/manage/products", input()],
      ["GET", `/api/manage/products/${id}`],
      ["PATCH", `/api/manage/products/${id}`, { price: -1 }],
      ["DELETE", `/api/manage/products/${id}`],
      ["POST", `/api/manage/products/${id}/restore`, {}],
    ];
    for (const [method, url, body] of calls) {
      const m = method as "GET" | "POST" | "PATCH" | "DELETE";
      expect((await buyer.request(m, url, body)).statusCode, `${method} ${url}`).toBe(403);
      expect((await createClient(t.app).request(m, url, body)).statusCode, `${method} ${url}`).toBe(401);
    }
    expect(await t.db.select().from(products).where(eq(products.name, "Quasar Ledger"))).toHaveLength(1);
  });
});

describe("listing saves are limited per account", () => {
  test(`a seller's save beyond ${LISTING_WRITE_LIMIT.max} in the window is refused (429); other sellers and admins go on`, async () => {
    const made = await createVerifiedAccount(t.app, t.dataDir, {
      email: "loop@busy-seller.example",
      accountType: "seller",
    });
    const looping = await signedInClient(t.app, made.email, made.password);
    const { id } = await create(looping, { name: "Looped Ledger" });
    for (let n = 1; n <= LISTING_WRITE_LIMIT.max; n++) {
      const res = await looping.patch(
        `/api/manage/products/${id}`,
        input({ name: "Looped Ledger", price: n }),
      );
      expect(res.statusCode, `save ${n}: ${res.body}`).toBe(200);
    }
    const refused = await looping.patch(`/api/manage/products/${id}`, input({ name: "Looped Ledger" }));
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: "RATE_LIMITED" });
    expect(refused.headers["retry-after"]).toBeDefined();

    const mine = await create(otherSeller, { name: "Unhurried Ledger" });
    expect((await otherSeller.patch(`/api/manage/products/${mine.id}`, input({ price: 5 }))).statusCode).toBe(
      200,
    );
    expect(
      (await admin.patch(`/api/manage/products/${id}`, input({ name: "Looped Ledger" }))).statusCode,
    ).toBe(200);
  });
});
