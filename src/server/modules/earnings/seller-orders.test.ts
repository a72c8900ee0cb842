import { and, eq, inArray, isNull, not, or } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ReceivedOrder, SellerStats } from "#domain/earnings";
import { lineTotal } from "#domain/money";
import type { Paged } from "#domain/paging";
import { products } from "#server/db/schema/catalog";
import { orders } from "#server/db/schema/orders";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import { createTestApp } from "#server/test/app";
import { createClient, signedInClient } from "#server/test/client";
import { placeOrder } from "#server/test/orders";
import { payOrder } from "#server/test/payments";
import { sellerWithProduct } from "#server/test/sellers";

// Issue 30, item 3: a seller's list of the orders they received, with only their own lines.

let t: Awaited<ReturnType<typeof createTestApp>>;
type Client = Awaited<ReturnType<typeof signedInClient>>;
let buyer: Client;
let admin: Client;
type Seller = Awaited<ReturnType<typeof sellerWithProduct>>;
let sellerA: Seller;
let sellerB: Seller;
/** A product of neither seller: the buyer's other line in a shared order. */
let otherProduct: { id: string; price: number };

beforeAll(async () => {
  t = await createTestApp({ seed: true });
  buyer = await signedInClient(t.app, "buyer@stackbay.test", DEMO_PASSWORD);
  admin = await signedInClient(t.app, "admin@stackbay.test", DEMO_PASSWORD);
  sellerA = await sellerWithProduct(t, "seller-a@orders.test", "software");
  sellerB = await sellerWithProduct(t, "seller-b@orders.test", "saas");
  const [row] = await t.db
    .select({ id: products.id, price: products.price })
    .from(products)
    .where(
      and(
        eq(products.isActive, true),
        eq(products.moderationStatus, "approved"),
        not(inArray(products.id, [sellerA.product.id, sellerB.product.id])),
        inArray(products.category, ["software", "saas", "api"]),
        or(isNull(products.sellerId), not(inArray(products.sellerId, [sellerA.id, sellerB.id]))),
      ),
    )
    .limit(1);
  if (!row) throw new Error("no third product");
  otherProduct = { id: row.id, price: Number(row.price) };
});
afterAll(() => t.close());

async function place(lines: { id: string; price: number; quantity: number }[]) {
  const items = lines.map((line) => ({ productId: line.id, quantity: line.quantity, price: line.price }));
  return (await placeOrder(buyer, { country: "Portugal", items })).orderId;
}

const received = async (client: Client, page = 1) => {
  const res = await client.get(`/api/seller/orders?page=${page}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Paged<ReceivedOrder>;
};

describe("a seller's orders received", () => {
  let shared = "";
  let onlyB = "";
  let unpaid = "";

  beforeAll(async () => {
    shared = await place([
      { ...sellerA.product, quantity: 2 },
      { ...sellerB.product, quantity: 1 },
      { ...otherProduct, quantity: 1 },
    ]);
    await payOrder(t.app, buyer, shared);
    onlyB = await place([{ ...sellerB.product, quantity: 1 }]);
    await payOrder(t.app, buyer, onlyB);
    // Never paid: nothing was sold.
    unpaid = await place([{ ...sellerA.product, quantity: 1 }]);
  });

  test("a shared order shows each seller only their own items, their total and the buyer", async () => {
    const a = await received(sellerA.client);
    expect(a.items.map((order) => order.orderId)).toEqual([shared]);
    const [order] = a.items;
    expect(order?.buyer).toBe("Bianca Buyer");
    expect(order?.items).toEqual([
      expect.objectContaining({
        productName: expect.any(String),
        quantity: 2,
        price: sellerA.product.price,
        refunded: false,
        shipping: null,
      }),
    ]);
    expect(order?.amount).toBe(Number(lineTotal(sellerA.product.price, 2)));

    const b = await received(sellerB.client);
    expect(b.items.map((o) => o.orderId)).toEqual([onlyB, shared]);
    const bShared = b.items.find((o) => o.orderId === shared);
    expect(bShared?.items).toHaveLength(1);
    expect(bShared?.items[0]?.quantity).toBe(1);
    expect(bShared?.amount).toBe(sellerB.product.price);
  });

  test("another seller's order and an unpaid one are absent; the list matches Orders Received", async () => {
    const a = await received(sellerA.client);
    const ids = a.items.map((o) => o.orderId);
    expect(ids).not.toContain(onlyB);
    expect(ids).not.toContain(unpaid);
    const stats = (await sellerA.client.get("/api/earnings/stats")).json() as SellerStats;
    expect(a.total).toBe(stats.ordersReceived);
    expect(a).toMatchObject({ page: 1, pageSize: 20, total: 1 });
    // Past the last page: an empty page, the same total.
    expect(await received(sellerA.client, 2)).toMatchObject({ items: [], total: 1, page: 2 });
  });

  test("a business buyer reads as their company", async () => {
    const id = await place([{ ...sellerA.product, quantity: 1 }]);
    // As a business checkout records it (the company printed on the invoice).
    await t.db.update(orders).set({ buyerCompany: "Harbour Labs Lda" }).where(eq(orders.id, id));
    await payOrder(t.app, buyer, id);
    const a = await received(sellerA.client);
    expect(a.items[0]).toMatchObject({ orderId: id, buyer: "Harbour Labs Lda" });
  });

  test("only sellers: a buyer and an admin are refused, a stranger must sign in", async () => {
    expect((await buyer.get("/api/seller/orders")).statusCode).toBe(403);
    expect((await admin.get("/api/seller/orders")).statusCode).toBe(403);
    expect((await createClient(t.app).get("/api/seller/orders")).statusCode).toBe(401);
    expect((await sellerA.client.get("/api/seller/orders?page=0")).statusCode).toBe(400);
  });
});
