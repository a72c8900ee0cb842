import { mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ProductDetail, ProductList } from "#domain/catalog-schemas";
import type { Storefront, StorefrontChangeQueue, VendorPage } from "#domain/storefronts";
import { auditLog } from "#server/db/schema/audit";
import { user } from "#server/db/schema/auth";
import { categories, products, storefronts, uploads } from "#server/db/schema/catalog";
import { reviews } from "#server/db/schema/reviews";
import { createTestApp } from "#server/test/app";
import { createClient, createVerifiedAccount, signedInClient } from "#server/test/client";

type Client = ReturnType<typeof createClient>;

let t: Awaited<ReturnType<typeof createTestApp>>;
let seller: Client;
let sellerId: string;
let other: Client;
let otherId: string;
let buyer: Client;
let admin: Client;
let slug: string;
const ids: Record<string, string> = {};

async function idOf(email: string) {
  const [row] = await t.db.select({ id: user.id }).from(user).where(eq(user.email, email));
  if (!row) throw new Error(`${email} missing`);
  return row.id;
}

async function account(email: string, accountType: "buyer" | "seller", firstName = "Test") {
  const made = await createVerifiedAccount(t.app, t.dataDir, { email, accountType, firstName });
  return { client: await signedInClient(t.app, made.email, made.password), id: await idOf(email) };
}

const put = (client: Client, url: string, body: object) => client.request("PUT", url, body);
const form = (overrides: Record<string, unknown> = {}) => ({
  name: "Quasar Labs",
  description: "Bookkeeping tools for small teams.",
  website: "https://quasar.example",
  country: "DE",
  logoUrl: null,
  ...overrides,
});

beforeAll(async () => {
  // A stand-in build, so the head tags can be read without running Vite.
  const webRoot = await mkdtemp(path.join(os.tmpdir(), "stackbay-web-"));
  await writeFile(path.join(webRoot, "index.html"), "<html><head><!--app-head--></head><body></body></html>");
  t = await createTestApp({ webRoot });
  ({ client: seller, id: sellerId } = await account("vera@storefront.test", "seller", "Vera"));
  ({ client: other, id: otherId } = await account("otto@storefront.test", "seller", "Otto"));
  ({ client: buyer } = await account("bea@storefront.test", "buyer"));
  const adminAccount = await account("ada@storefront.test", "buyer");
  await t.db.update(user).set({ isAdmin: true }).where(eq(user.id, adminAccount.id));
  admin = adminAccount.client;

  await t.db.insert(categories).values({ name: "Software", slug: "software" });
  const rows = await t.db
    .insert(products)
    .values([
      { name: "Vera Public", category: "software", price: "10", vendor: "x", sellerId },
      { name: "Vera Second", category: "software", price: "20", vendor: "x", sellerId },
      { name: "Vera Inactive", category: "software", price: "30", vendor: "x", sellerId, isActive: false },
      {
        name: "Vera Pending",
        category: "software",
        price: "40",
        vendor: "x",
        sellerId,
        moderationStatus: "pending",
      },
      {
        name: "Otto Pending",
        category: "software",
        price: "5",
        vendor: "y",
        sellerId: otherId,
        moderationStatus: "pending",
      },
    ])
    .returning({ id: products.id, name: products.name });
  for (const row of rows) ids[row.name] = row.id;
  const [front] = await t.db.select().from(storefronts).where(eq(storefronts.userId, sellerId));
  slug = front?.slug ?? "";
});
afterAll(() => t.close());

const page = async (s: string, query = "") => createClient(t.app).get(`/api/vendors/${s}${query}`);

describe("storefronts are created with the seller", () => {
  test("a seller's sign-up creates their storefront from their name; a buyer gets none", async () => {
    expect(slug).toBe("vera-person");
    const [front] = await t.db.select().from(storefronts).where(eq(storefronts.userId, sellerId));
    expect(front).toMatchObject({ name: "Vera Person", isVerified: false });
    const buyerId = await idOf("bea@storefront.test");
    expect(await t.db.select().from(storefronts).where(eq(storefronts.userId, buyerId))).toEqual([]);
  });

  test("an admin granting the seller role creates a storefront with a slug not yet taken", async () => {
    const made = await account("vera2@storefront.test", "buyer", "Vera");
    const superAdminId = await idOf("ada@storefront.test");
    await t.db.update(user).set({ isSuperAdmin: true }).where(eq(user.id, superAdminId));
    const res = await admin.patch(`/api/admin/users/${made.id}`, { isSeller: true });
    expect(res.statusCode, res.body).toBe(200);
    const [front] = await t.db.select().from(storefronts).where(eq(storefronts.userId, made.id));
    expect(front?.slug).toBe("vera-person-2");
  });
  test("a deleted seller's slug is retired: the next seller of the same name gets another", async () => {
    const gone = await account("rita@storefront.test", "seller", "Rita");
    const [before] = await t.db.select().from(storefronts).where(eq(storefronts.userId, gone.id));
    expect(before?.slug).toBe("rita-person");
    await t.db.delete(user).where(eq(user.id, gone.id));
    expect(await t.db.select().from(storefronts).where(eq(storefronts.slug, "rita-person"))).toEqual([]);
    const next = await account("rita.other@storefront.test", "seller", "Rita");
    const [after] = await t.db.select().from(storefronts).where(eq(storefronts.userId, next.id));
    expect(after?.slug).toBe("rita-person-2");
  });
});

describe("GET /api/vendors/:slug", () => {
  test("shows the storefront with only its public products, newest first, paged", async () => {
    const res = await page(slug);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as VendorPage;
    expect(body).toMatchObject({
      slug,
      name: "Vera Person",
      isVerified: false,
      rating: null,
      reviewsCount: 0,
    });
    expect(body.memberSince).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(body.products.total).toBe(2);
    expect(body.products.items.map((p) => p.name).sort()).toEqual(["Vera Public", "Vera Second"]);
    expect(body.products.items.every((p) => p.vendorSlug === slug)).toBe(true);
    const second = (await page(slug, "?page=2")).json() as VendorPage;
    expect(second.products).toMatchObject({ items: [], total: 2, page: 2 });
  });

  test("an unknown slug, and a seller with no public product and no badge, answer 404 STOREFRONT_NOT_FOUND", async () => {
    for (const s of ["no-such-vendor", "Bad%20Slug", "otto-person"]) {
      const res = await page(s);
      expect(res.statusCode, s).toBe(404);
      expect(res.json()).toMatchObject({ code: "STOREFRONT_NOT_FOUND" });
    }
  });

  test("the rating is the published reviews of public products: sum of stars / count, one decimal", async () => {
    const reviewers = (
      await t.db
        .insert(user)
        .values(
          ["r1", "r2", "r3", "r4"].map((n) => ({
            id: `reviewer-${n}`,
            name: n,
            email: `${n}@storefront.test`,
            firstName: n,
            lastName: "Reviewer",
          })),
        )
        .returning({ id: user.id })
    ).map((r) => r.id);
    const review = (userId: string, productId: string, rating: number, status = "published") => ({
      userId,
      productId,
      rating,
      status,
      title: "Review",
      body: "A review body.",
    });
    await t.db.insert(reviews).values([
      review(reviewers[0]!, ids["Vera Public"]!, 5),
      review(reviewers[1]!, ids["Vera Public"]!, 4),
      review(reviewers[2]!, ids["Vera Second"]!, 4),
      // Left out: a hidden review, and reviews of products the public cannot see.
      review(reviewers[3]!, ids["Vera Public"]!, 1, "hidden"),
      review(reviewers[0]!, ids["Vera Inactive"]!, 1),
      review(reviewers[1]!, ids["Vera Pending"]!, 1),
    ]);
    const body = (await page(slug)).json() as VendorPage;
    // 13 stars / 3 reviews = 4.333… → 4.3
    expect(body).toMatchObject({ rating: 4.3, reviewsCount: 3 });
  });
});

describe("the seller's storefront", () => {
  test("only sellers read and edit their own storefront; buyers and strangers are refused", async () => {
    expect((await createClient(t.app).get("/api/seller/storefront")).statusCode).toBe(401);
    expect((await buyer.get("/api/seller/storefront")).statusCode).toBe(403);
    expect((await put(buyer, "/api/seller/storefront", form())).statusCode).toBe(403);
    const mine = (await seller.get("/api/seller/storefront")).json() as { storefront: Storefront };
    expect(mine.storefront).toMatchObject({ slug, name: "Vera Person" });
    const theirs = (await other.get("/api/seller/storefront")).json() as { storefront: Storefront };
    expect(theirs.storefront.slug).toBe("otto-person");
  });

  test("bad websites, countries and names are refused field by field", async () => {
    for (const [field, value] of [
      ["website", "http://quasar.example"],
      ["website", "javascript:alert(1)"],
      ["website", "quasar"],
      ["country", "XX"],
      ["name", " "],
    ] as const) {
      const res = await put(seller, "/api/seller/storefront", form({ [field]: value }));
      expect(res.statusCode, `${field}=${value}`).toBe(400);
      expect(res.json().details?.[0]?.path, field).toBe(field);
    }
  });

  test("the logo must be one of the seller's own uploads", async () => {
    const mine = "/uploads/products/00000000-0000-4000-8000-00000000000a.webp";
    const theirs = "/uploads/products/00000000-0000-4000-8000-00000000000b.webp";
    await t.db.insert(uploads).values([
      { url: mine, ownerId: sellerId },
      { url: theirs, ownerId: otherId },
    ]);
    const foreign = await put(
      seller,
      "/api/seller/storefront",
      form({ logoUrl: "https://evil.example/x.png" }),
    );
    expect(foreign.statusCode).toBe(400);
    const notRecorded = "/uploads/products/00000000-0000-4000-8000-00000000000c.webp";
    for (const url of [theirs, notRecorded]) {
      const res = await put(seller, "/api/seller/storefront", form({ logoUrl: url }));
      expect(res.statusCode, url).toBe(403);
      expect(res.json().code).toBe("IMAGE_NOT_YOURS");
    }
    const ok = await put(seller, "/api/seller/storefront", form({ name: "Vera Person", logoUrl: mine }));
    expect(ok.statusCode, ok.body).toBe(200);
    // A new logo waits for review like a new name.
    expect(ok.json().storefront).toMatchObject({
      logoUrl: null,
      pendingChange: { name: "Vera Person", logoUrl: mine, status: "pending" },
    });
    // Saving the approved name and logo again withdraws it.
    const back = await put(seller, "/api/seller/storefront", form({ name: "Vera Person", logoUrl: null }));
    expect(back.json().storefront.pendingChange).toBeNull();
  });

  test("a new name waits for review: the storefront, its products and its badge keep the approved identity until an admin approves it", async () => {
    const verification = `/api/admin/vendors/${slug}/verification`;
    expect((await put(admin, verification, { verified: true })).statusCode).toBe(200);
    const res = await put(seller, "/api/seller/storefront", form());
    expect(res.statusCode, res.body).toBe(200);
    // The details change at once; the name is asked for, and the seller is told so.
    expect(res.json().storefront).toMatchObject({
      slug,
      name: "Vera Person",
      website: "https://quasar.example",
      country: "DE",
      pendingChange: { name: "Quasar Labs", logoUrl: null, status: "pending", reason: null },
    });
    expect(
      ((await seller.get("/api/seller/storefront")).json() as { storefront: Storefront }).storefront,
    ).toMatchObject({ name: "Vera Person", pendingChange: { name: "Quasar Labs", status: "pending" } });
    const waiting = (await page(slug)).json() as VendorPage;
    expect(waiting).toMatchObject({ name: "Vera Person", isVerified: false });
    const vendorsWhileWaiting = await t.db
      .select({ vendor: products.vendor })
      .from(products)
      .where(eq(products.sellerId, sellerId));
    expect(vendorsWhileWaiting.map((v) => v.vendor)).not.toContain("Quasar Labs");
    expect(((await createClient(t.app).get("/api/products?search=quasar")).json() as ProductList).total).toBe(
      0,
    );

    // Only admins decide, from the queue.
    const queue = (await admin.get("/api/admin/storefront-changes")).json() as StorefrontChangeQueue;
    expect(queue.items).toContainEqual(
      expect.objectContaining({ slug, currentName: "Vera Person", name: "Quasar Labs", isVerified: true }),
    );
    expect((await seller.post(`/api/admin/storefront-changes/${slug}/approve`)).statusCode).toBe(403);
    const approved = await admin.post(`/api/admin/storefront-changes/${slug}/approve`);
    expect(approved.statusCode, approved.body).toBe(200);
    const again = await admin.post(`/api/admin/storefront-changes/${slug}/approve`);
    expect(again.statusCode).toBe(404);
    expect(again.json().code).toBe("STOREFRONT_CHANGE_NOT_FOUND");

    const vendors = await t.db
      .select({ vendor: products.vendor })
      .from(products)
      .where(eq(products.sellerId, sellerId));
    expect(new Set(vendors.map((v) => v.vendor))).toEqual(new Set(["Quasar Labs"]));
    const [otto] = await t.db.select().from(products).where(eq(products.id, ids["Otto Pending"]!));
    expect(otto?.vendor).toBe("y");
    const detail = (
      await createClient(t.app).get(`/api/products/${ids["Vera Public"]}`)
    ).json() as ProductDetail;
    expect(detail).toMatchObject({ vendor: "Quasar Labs", vendorSlug: slug });
    const search = (await createClient(t.app).get("/api/products?search=quasar")).json() as ProductList;
    expect(search.total).toBe(2);
    expect((await page(slug)).json()).toMatchObject({ name: "Quasar Labs", isVerified: true });
    const audits = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, "storefront"), eq(auditLog.entityId, slug)));
    expect(audits.map((a) => a.changes.name)).toContainEqual({ before: "Vera Person", after: "Quasar Labs" });
  });

  test("a rejected name stays off the storefront, and the seller reads why; a trusted seller's applies at once", async () => {
    const res = await put(seller, "/api/seller/storefront", form({ name: "Microsoft Corporation" }));
    expect(res.json().storefront).toMatchObject({
      name: "Quasar Labs",
      pendingChange: { status: "pending" },
    });
    expect(
      (await admin.post(`/api/admin/storefront-changes/${slug}/reject`, { reason: "short" })).statusCode,
    ).toBe(400);
    const reason = "This name belongs to another company.";
    const rejected = await admin.post(`/api/admin/storefront-changes/${slug}/reject`, { reason });
    expect(rejected.statusCode, rejected.body).toBe(200);
    const mine = ((await seller.get("/api/seller/storefront")).json() as { storefront: Storefront })
      .storefront;
    expect(mine).toMatchObject({
      name: "Quasar Labs",
      pendingChange: { name: "Microsoft Corporation", status: "rejected", reason },
    });
    expect((await page(slug)).json()).toMatchObject({ name: "Quasar Labs", isVerified: true });
    const queue = (await admin.get("/api/admin/storefront-changes")).json() as StorefrontChangeQueue;
    expect(queue.items.map((item) => item.slug)).not.toContain(slug);

    const tom = await account("tom@storefront.test", "seller", "Tom");
    await t.db.update(user).set({ isTrustedSeller: true }).where(eq(user.id, tom.id));
    const trusted = await put(tom.client, "/api/seller/storefront", form({ name: "Tom Trusted Tools" }));
    expect(trusted.json().storefront).toMatchObject({ name: "Tom Trusted Tools", pendingChange: null });
  });

  test("a seller's new product is sold under the storefront's name whatever vendor is typed", async () => {
    const res = await seller.post("/api/manage/products", {
      name: "Vera Typed Vendor",
      vendor: "Someone Else",
      category: "software",
      price: 10,
      features: [],
      specifications: [],
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().product.vendor).toBe("Quasar Labs");
  });
});

describe("the Verified vendor badge", () => {
  test("only admins verify and unverify; each change is audited once", async () => {
    const url = "/api/admin/vendors/otto-person/verification";
    expect((await put(createClient(t.app), url, { verified: true })).statusCode).toBe(401);
    expect((await put(seller, url, { verified: true })).statusCode).toBe(403);
    expect((await put(other, url, { verified: true })).statusCode).toBe(403);
    const unknown = await put(admin, "/api/admin/vendors/no-such-vendor/verification", { verified: true });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe("STOREFRONT_NOT_FOUND");
    const yes = await put(admin, url, { verified: true });
    expect(yes.statusCode, yes.body).toBe(200);
    expect(yes.json()).toMatchObject({ slug: "otto-person", isVerified: true });
    expect((await put(admin, url, { verified: true })).statusCode).toBe(200);
    // Verified, a storefront is public even before its first product is approved.
    expect(((await page("otto-person")).json() as VendorPage).isVerified).toBe(true);
    const audits = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, "storefront"), eq(auditLog.entityId, "otto-person")));
    expect(audits).toHaveLength(1);
    expect(audits[0]?.changes).toEqual({ isVerified: { before: false, after: true } });
    await put(admin, url, { verified: false });
    expect((await page("otto-person")).statusCode).toBe(404);
  });
});

describe("head tags and sitemap", () => {
  test("a public storefront's page gets its title, description and canonical; a hidden one is 404", async () => {
    const res = await t.app.inject({ method: "GET", url: `/vendors/${slug}` });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain("<title>Quasar Labs | Stackbay</title>");
    expect(res.body).toContain('<meta name="description" content="Bookkeeping tools for small teams." />');
    expect(res.body).toContain(`<link rel="canonical" href="http://127.0.0.1:3000/vendors/${slug}" />`);
    expect(res.body).toContain('<meta property="og:title" content="Quasar Labs | Stackbay" />');
    for (const url of ["/vendors/otto-person", "/vendors/no-such-vendor"]) {
      expect((await t.app.inject({ method: "GET", url })).statusCode, url).toBe(404);
    }
  });

  test("the sitemap lists public storefronts only", async () => {
    const sitemap = (await t.app.inject({ method: "GET", url: "/sitemap.xml" })).body;
    expect(sitemap).toContain(`<loc>http://127.0.0.1:3000/vendors/${slug}</loc>`);
    expect(sitemap).not.toContain("/vendors/otto-person<");
  });
});
