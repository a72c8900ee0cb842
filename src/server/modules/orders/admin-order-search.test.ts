import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ADMIN_ORDERS_PAGE_SIZE, type AdminOrderList } from "#domain/checkout";
import { products } from "#server/db/schema/catalog";
import { orders } from "#server/db/schema/orders";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import { createTestApp } from "#server/test/app";
import { createClient, signedInClient } from "#server/test/client";
import { placeOrder } from "#server/test/orders";

let t: Awaited<ReturnType<typeof createTestApp>>;
type Client = Awaited<ReturnType<typeof signedInClient>>;
let admin: Client;
let buyer: Client;
let orderId: string;

beforeAll(async () => {
  t = await createTestApp({ seed: true });
  admin = await signedInClient(t.app, "admin@stackbay.test", DEMO_PASSWORD);
  buyer = await signedInClient(t.app, "buyer@stackbay.test", DEMO_PASSWORD);
  const [product] = await t.db
    .select({ id: products.id, price: products.price })
    .from(products)
    .where(and(eq(products.category, "software"), eq(products.isActive, true)))
    .limit(1);
  if (!product) throw new Error("the seed has no software product");
  ({ orderId } = await placeOrder(buyer, {
    items: [{ productId: product.id, quantity: 3, price: product.price }],
  }));
});
afterAll(() => t.close());

const search = async (q: string, page = 1) => {
  const res = await admin.get(`/api/admin/orders?q=${encodeURIComponent(q)}&page=${page}`);
  expect(res.statusCode).toBe(200);
  return res.json() as AdminOrderList;
};

describe("admin order search", () => {
  test("a full order id finds that order alone, with its items", async () => {
    const found = await search(orderId.toUpperCase());
    expect(found.total).toBe(1);
    expect(found.items.map((o) => o.id)).toEqual([orderId]);
    expect(found.items[0]?.items[0]?.quantity).toBe(3);
    expect(found.items[0]?.accountEmail).toBe("buyer@stackbay.test");
    expect(found.items[0]?.accountName).toContain("Bianca");
  });

  test("the 8-character short id finds the orders whose id starts with it", async () => {
    const found = await search(orderId.slice(0, 8));
    expect(found.items.map((o) => o.id)).toContain(orderId);
    for (const order of found.items) {
      const byId = order.id.startsWith(orderId.slice(0, 8));
      const byBuyer = order.accountEmail.includes(orderId.slice(0, 8));
      expect(byId || byBuyer).toBe(true);
    }
  });

  test("part of the buyer's e-mail or name finds their orders, in any case", async () => {
    for (const q of ["BUYER@StackBay", "bianca BUYER", "bIaNcA"]) {
      const found = await search(q);
      expect(
        found.items.map((o) => o.id),
        q,
      ).toContain(orderId);
      expect(
        found.items.every((o) => o.accountEmail === "buyer@stackbay.test"),
        q,
      ).toBe(true);
    }
  });

  test("a search that matches nothing answers an empty page; wildcards are plain text", async () => {
    for (const q of ["nobody-at-all@nowhere.example", "%", "_"]) {
      const found = await search(q);
      expect(found.total, q).toBe(0);
      expect(found.items, q).toEqual([]);
    }
  });

  test("results come a page at a time with their total", async () => {
    // More of the buyer's orders than a page holds: copies of the one placed above.
    const [row] = await t.db.select().from(orders).where(eq(orders.id, orderId));
    if (!row) throw new Error("order not stored");
    await t.db.insert(orders).values(
      Array.from({ length: ADMIN_ORDERS_PAGE_SIZE }, () => ({
        ...row,
        id: randomUUID(),
        idempotencyKey: randomUUID(),
      })),
    );
    const all = await search("buyer@stackbay.test");
    expect(all.total).toBeGreaterThan(ADMIN_ORDERS_PAGE_SIZE);
    expect(all.items).toHaveLength(ADMIN_ORDERS_PAGE_SIZE);
    const second = await search("buyer@stackbay.test", 2);
    expect(second.page).toBe(2);
    expect(second.total).toBe(all.total);
    expect(second.items).toHaveLength(Math.min(ADMIN_ORDERS_PAGE_SIZE, all.total - ADMIN_ORDERS_PAGE_SIZE));
    const firstIds = new Set(all.items.map((o) => o.id));
    expect(second.items.some((o) => firstIds.has(o.id))).toBe(false);
    // The unfiltered list has at least as many, so the search really narrowed it.
    const everything = (await admin.get("/api/admin/orders")).json() as AdminOrderList;
    expect(everything.total).toBeGreaterThanOrEqual(all.total);
  });

  test("only admins search: strangers 401, buyers 403; an overlong search is refused", async () => {
    expect((await createClient(t.app).get("/api/admin/orders?q=buyer")).statusCode).toBe(401);
    expect((await buyer.get("/api/admin/orders?q=buyer")).statusCode).toBe(403);
    const long = await admin.get(`/api/admin/orders?q=${"a".repeat(201)}`);
    expect(long.statusCode).toBe(400);
    expect(long.json().code).toBe("VALIDATION_ERROR");
  });
});
