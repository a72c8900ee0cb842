import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ProductList, SavedItem } from "#domain/catalog-schemas";
import type { FeaturedAdminList, ModerationQueue } from "#domain/moderation";
import type { EditableProduct, ManagedProductList } from "#domain/product-admin";
import type { ResellerLinks } from "#domain/referrals";
import { auditLog } from "#server/db/schema/audit";
import { user } from "#server/db/schema/auth";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import { createTestApp } from "#server/test/app";
import { createClient, createVerifiedAccount, signedInClient } from "#server/test/client";
import { orderBody } from "#server/test/orders";
import { waitForMail } from "#server/test/outbox";

type Client = ReturnType<typeof createClient>;

let t: Awaited<ReturnType<typeof createTestApp>>;
let admin: Client;
let seller: Client;
let buyer: Client;
let trustedSeller: Client;
let trustedSellerId: string;

beforeAll(async () => {
  t = await createTestApp({ seed: true });
  admin = await signedInClient(t.app, "admin@stackbay.test", DEMO_PASSWORD);
  seller = await signedInClient(t.app, "seller@stackbay.test", DEMO_PASSWORD);
  buyer = await signedInClient(t.app, "buyer@stackbay.test", DEMO_PASSWORD);
  const other = await createVerifiedAccount(t.app, t.dataDir, {
    email: "tara@trusted-seller.example",
    accountType: "seller",
  });
  trustedSeller = await signedInClient(t.app, other.email, other.password);
  const [row] = await t.db.select({ id: user.id }).from(user).where(eq(user.email, other.email));
  if (!row) throw new Error("trusted seller missing");
  trustedSellerId = row.id;
});
afterAll(() => t.close());

const input = (overrides: Record<string, unknown> = {}) => ({
  name: `Moderated ${randomUUID().slice(0, 8)}`,
  vendor: "Quasar Labs",
  description: "Double-entry bookkeeping for small teams.",
  category: "software",
  price: 129.99,
  features: ["Bank feeds"],
  specifications: [{ key: "Platform", value: "Web" }],
  ...overrides,
});

async function create(client: Client, overrides: Record<string, unknown> = {}) {
  const res = await client.post("/api/manage/products", input(overrides));
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { product: EditableProduct }).product;
}

const edit = (client: Client, product: EditableProduct, overrides: Record<string, unknown>) =>
  client.patch(`/api/manage/products/${product.id}`, {
    ...input(),
    name: product.name,
    vendor: product.vendor,
    description: product.description,
    category: product.category,
    price: product.price,
    features: product.features,
    specifications: product.specifications,
    ...overrides,
  });

const anonymous = () => createClient(t.app);

async function publiclyVisible(product: { id: string; name: string }) {
  const detail = (await anonymous().get(`/api/products/${product.id}`)).statusCode === 200;
  const search = (
    await anonymous().get(`/api/products?search=${encodeURIComponent(product.name)}`)
  ).json() as ProductList;
  const sitemap = (await anonymous().get("/sitemap.xml")).body.includes(product.id);
  return { detail, search: search.items.some((p) => p.id === product.id), sitemap };
}

const approve = (client: Client, id: string) => client.post(`/api/admin/moderation/${id}/approve`);
const reject = (client: Client, id: string, reason: string) =>
  client.post(`/api/admin/moderation/${id}/reject`, { reason });

async function myListing(client: Client, id: string) {
  const list = (await client.get("/api/manage/products")).json() as ManagedProductList;
  return list.items.find((p) => p.id === id);
}

function checkout(productId: string, price: number) {
  return buyer.post("/api/orders", orderBody({ items: [{ productId, price }] }));
}

describe("listing moderation", () => {
  test("an untrusted seller's new listing is pending and invisible everywhere public until an admin approves it", async () => {
    const product = await create(seller);
    expect(product.moderationStatus).toBe("pending");
    expect(await publiclyVisible(product)).toEqual({ detail: false, search: false, sitemap: false });
    const page = await anonymous().get(`/products/${product.id}`);
    expect(page.statusCode).toBe(404);
    expect(page.body).not.toContain(product.name);
    const save = await buyer.request("PUT", `/api/saved/${product.id}`, {});
    expect(save.statusCode).toBe(404);
    const order = await checkout(product.id, product.price);
    expect(order.statusCode, order.body).toBe(409);
    expect(order.json().code).toBe("PRODUCT_UNAVAILABLE");

    const queue = (await admin.get("/api/admin/moderation")).json() as ModerationQueue;
    expect(queue.items.find((item) => item.id === product.id)).toMatchObject({
      name: product.name,
      sellerName: expect.any(String),
      categoryName: "Software Licenses",
    });

    const approved = await approve(admin, product.id);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({ moderationStatus: "approved", moderationReason: null });
    expect(await publiclyVisible(product)).toEqual({ detail: true, search: true, sitemap: true });
    expect((await checkout(product.id, product.price)).statusCode).toBe(201);
    expect((await myListing(seller, product.id))?.moderationStatus).toBe("approved");
    const audits = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, product.id), eq(auditLog.action, "update")));
    expect(audits.at(-1)?.changes).toMatchObject({
      moderationStatus: { before: "pending", after: "approved" },
    });
    const queueAfter = (await admin.get("/api/admin/moderation")).json() as ModerationQueue;
    expect(queueAfter.items.some((item) => item.id === product.id)).toBe(false);
  });

  test("resellers get no link to a resellable listing until it is approved", async () => {
    const reseller = await signedInClient(t.app, "reseller@stackbay.test", DEMO_PASSWORD);
    const product = await create(seller, { isResellable: true });
    const linked = async () =>
      ((await reseller.get("/api/reseller/links?pageSize=100")).json() as ResellerLinks).items.some(
        (link) => link.productId === product.id,
      );
    expect(await linked()).toBe(false);
    await approve(admin, product.id);
    expect(await linked()).toBe(true);
  });

  test("a seller cannot approve or reject their own listing, nor see the queue", async () => {
    const product = await create(seller);
    expect((await approve(seller, product.id)).statusCode).toBe(403);
    expect((await reject(seller, product.id, "Looks fine to me, honestly")).statusCode).toBe(403);
    expect((await seller.get("/api/admin/moderation")).statusCode).toBe(403);
    expect((await myListing(seller, product.id))?.moderationStatus).toBe("pending");
    expect((await publiclyVisible(product)).detail).toBe(false);
  });

  test("a rejection needs a reason, which the seller sees and is e-mailed; fixing the listing resubmits it", async () => {
    const product = await create(seller);
    const short = await reject(admin, product.id, "bad");
    expect(short.statusCode).toBe(400);
    const reason = "The screenshots show another vendor's product.";
    const rejected = await reject(admin, product.id, reason);
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(await myListing(seller, product.id)).toMatchObject({
      moderationStatus: "rejected",
      moderationReason: reason,
    });
    const mail = await waitForMail(
      t.dataDir,
      (m) => m.to === "seller@stackbay.test" && m.body.includes(reason),
    );
    expect(mail.body).toContain(product.name);
    expect((await publiclyVisible(product)).detail).toBe(false);

    const resubmitted = await edit(seller, product, { description: "Now with our own screenshots." });
    expect(resubmitted.statusCode, resubmitted.body).toBe(200);
    expect((resubmitted.json() as { product: EditableProduct }).product).toMatchObject({
      moderationStatus: "pending",
      moderationReason: null,
    });
    const queue = (await admin.get("/api/admin/moderation")).json() as ModerationQueue;
    expect(queue.items.some((item) => item.id === product.id)).toBe(true);
  });

  test("a material edit of an approved listing goes back to review; a price change does not", async () => {
    const product = await create(seller);
    await approve(admin, product.id);
    const repriced = await edit(seller, product, { price: 99 });
    expect((repriced.json() as { product: EditableProduct }).product.moderationStatus).toBe("approved");
    const renamed = await edit(seller, product, { price: 99, name: `${product.name} Pro` });
    expect((renamed.json() as { product: EditableProduct }).product.moderationStatus).toBe("pending");
    expect((await publiclyVisible(product)).detail).toBe(false);
  });

  test("an edit that makes an approved listing look like a bigger deal goes back to review; a modest one does not", async () => {
    const deal = { price: 100, originalPrice: 150, discountLabel: "Spring sale", discountPercentage: 33 };
    const statusAfter = async (changes: Record<string, unknown>) => {
      const product = await create(seller, deal);
      expect((await approve(admin, product.id)).statusCode).toBe(200);
      const res = await edit(seller, product, { ...deal, ...changes });
      expect(res.statusCode, res.body).toBe(200);
      const status = (res.json() as { product: EditableProduct }).product.moderationStatus;
      expect((await publiclyVisible(product)).detail).toBe(status === "approved");
      return status;
    };
    expect(await statusAfter({ discountLabel: "OFFICIAL MICROSOFT PARTNER - pay at t.me/x" })).toBe(
      "pending",
    );
    expect(await statusAfter({ originalPrice: 99_999 })).toBe("pending");
    expect(await statusAfter({ discountPercentage: 95 })).toBe("pending");
    expect(await statusAfter({ price: 1 })).toBe("pending");
    expect(await statusAfter({ price: 90, originalPrice: 140, discountPercentage: 20 })).toBe("approved");
    expect(await statusAfter({ discountLabel: null })).toBe("approved");
  });

  test("a saved product sent back to review stays in the saved list, as unavailable", async () => {
    const product = await create(seller);
    await approve(admin, product.id);
    expect((await buyer.request("PUT", `/api/saved/${product.id}`, {})).statusCode).toBe(200);
    const savedItem = async () =>
      ((await buyer.get("/api/saved")).json() as { items: SavedItem[] }).items.find(
        (i) => i.product.id === product.id,
      );
    expect((await savedItem())?.available).toBe(true);
    await edit(seller, product, { name: `${product.name} v2` });
    expect((await savedItem())?.available).toBe(false);
  });

  test("an admin's listing, and a trusted seller's, are public at once; trust is audited", async () => {
    const own = await create(admin);
    expect(own.moderationStatus).toBe("approved");
    expect((await publiclyVisible(own)).detail).toBe(true);

    const before = await create(trustedSeller);
    expect(before.moderationStatus).toBe("pending");
    expect(
      (await seller.request("PUT", `/api/admin/users/${trustedSellerId}/trusted-seller`, { trusted: true }))
        .statusCode,
    ).toBe(403);
    const trust = await admin.request("PUT", `/api/admin/users/${trustedSellerId}/trusted-seller`, {
      trusted: true,
    });
    expect(trust.statusCode, trust.body).toBe(200);
    expect(trust.json()).toEqual({ id: trustedSellerId, isTrustedSeller: true });
    const [audit] = await t.db.select().from(auditLog).where(eq(auditLog.entityId, trustedSellerId));
    expect(audit?.changes).toEqual({ isTrustedSeller: { before: false, after: true } });

    const after = await create(trustedSeller);
    expect(after.moderationStatus).toBe("approved");
    expect(await publiclyVisible(after)).toEqual({ detail: true, search: true, sitemap: true });
  });
});

describe("featured products", () => {
  const home = async () =>
    ((await anonymous().get("/api/featured-products")).json() as { items: { id: string }[] }).items;
  const choose = (client: Client, productIds: string[]) =>
    client.request("PUT", "/api/admin/featured-products", { productIds });

  test("the admins' order is the home order; none chosen falls back to the first 8 active products", async () => {
    const firstEight = (await anonymous().get("/api/products?pageSize=8")).json() as ProductList;
    expect((await home()).map((p) => p.id)).toEqual(firstEight.items.map((p) => p.id));

    const a = await create(admin);
    const b = await create(admin);
    const chosen = await choose(admin, [b.id, a.id]);
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect((chosen.json() as FeaturedAdminList).items.map((p) => p.id)).toEqual([b.id, a.id]);
    expect((await home()).map((p) => p.id)).toEqual([b.id, a.id]);
    const [audit] = await t.db.select().from(auditLog).where(eq(auditLog.entityType, "featured_products"));
    expect(audit?.changes).toEqual({ productIds: { before: [], after: [b.id, a.id] } });

    // A seller listing a product afterwards does not push into the chosen list.
    await create(trustedSeller);
    expect((await home()).map((p) => p.id)).toEqual([b.id, a.id]);

    expect((await choose(admin, [])).statusCode).toBe(200);
    expect((await home()).map((p) => p.id)).toHaveLength(8);
  });

  test("only approved, active products can be chosen or shown", async () => {
    const pending = await create(seller);
    const refused = await choose(admin, [pending.id]);
    expect(refused.statusCode).toBe(400);

    const approved = await create(seller);
    await approve(admin, approved.id);
    const shownToo = await create(admin);
    expect((await choose(admin, [approved.id, shownToo.id])).statusCode).toBe(200);
    await reject(admin, approved.id, "Taken down after a buyer complaint.");
    expect((await home()).map((p) => p.id)).toEqual([shownToo.id]);
    const list = (await admin.get("/api/admin/featured-products")).json() as FeaturedAdminList;
    expect(list.items.map((p) => [p.id, p.shown])).toEqual([
      [approved.id, false],
      [shownToo.id, true],
    ]);
  });

  test("non-admins are refused on every admin route", async () => {
    const id = "00000000-0000-4000-8000-000000000000";
    for (const client of [seller, buyer, anonymous()]) {
      const answers = await Promise.all([
        client.get("/api/admin/moderation"),
        approve(client, id),
        reject(client, id, "A long enough reason to pass."),
        client.request("PUT", `/api/admin/users/${trustedSellerId}/trusted-seller`, { trusted: true }),
        client.get("/api/admin/featured-products"),
        choose(client, []),
      ]);
      for (const res of answers) expect([401, 403]).toContain(res.statusCode);
    }
  });
});
