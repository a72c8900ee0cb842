import { randomUUID } from "node:crypto";
import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { products } from "#server/db/schema/catalog";
import { orders } from "#server/db/schema/orders";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import { createTestApp } from "#server/test/app";
import { type createClient, signedInClient } from "#server/test/client";
import { orderBody } from "#server/test/orders";
import { getOrder } from "#server/test/payments";

// A file of its own: its own database, so its orders and rate-limit counters are its own too.
let t: Awaited<ReturnType<typeof createTestApp>>;
let buyer: ReturnType<typeof createClient>;
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp({ seed: true });
  buyer = await signedInClient(t.app, "buyer@stackbay.test", DEMO_PASSWORD);
  const made = await t.db
    .insert(products)
    .values([
      { name: "Moving Suite", category: "software", price: "12", vendor: "Acme" },
      { name: "Moving API", category: "apis", price: "0.004", vendor: "Acme" },
      { name: "Steady License", category: "software", price: "19.99", vendor: "Acme" },
      { name: "Keyed Board", category: "hardware", price: "40", vendor: "Acme" },
    ])
    .returning({ id: products.id, name: products.name });
  for (const row of made) ids[row.name] = row.id;
});
afterAll(() => t.close());

const id = (name: string) => ids[name] ?? "";
/** The order request itself is this file's subject: each test builds its body and reads the answer. */
const body = (items: { name: string; quantity: number; price: number }[], key = randomUUID()) =>
  orderBody({
    idempotencyKey: key,
    items: items.map(({ name, ...line }) => ({ productId: id(name), ...line })),
  });
const setPrice = (name: string, price: string) =>
  t.db
    .update(products)
    .set({ price })
    .where(eq(products.id, id(name)));
const orderCount = async () => (await t.db.select({ n: count() }).from(orders))[0]?.n ?? 0;
const withKey = async (key: string) =>
  t.db.select({ id: orders.id }).from(orders).where(eq(orders.idempotencyKey, key));

describe("prices shown at checkout", () => {
  test("a price changed after the cart: 409 with what changed, nothing written; the retry at the new prices is 201", async () => {
    await setPrice("Moving Suite", "14.25");
    await setPrice("Moving API", "0.0041");
    const before = await orderCount();
    const key = randomUUID();
    const shown = [
      { name: "Moving Suite", quantity: 2, price: 12 },
      { name: "Moving API", quantity: 10, price: 0.004 },
      { name: "Steady License", quantity: 1, price: 19.99 },
    ];
    const refused = await buyer.post("/api/orders", body(shown, key));
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      code: "PRICE_CHANGED",
      message:
        "Prices changed since these items were added to your cart: Moving Suite, Moving API. Review the new total and place your order again.",
      details: {
        changes: [
          { productId: id("Moving Suite"), name: "Moving Suite", oldPrice: 12, newPrice: 14.25 },
          { productId: id("Moving API"), name: "Moving API", oldPrice: 0.004, newPrice: 0.0041 },
        ],
      },
    });
    expect(await orderCount()).toBe(before);
    expect(await withKey(key)).toHaveLength(0);

    // The buyer saw the new prices and places the order again, with the same checkout key.
    const retried = await buyer.post(
      "/api/orders",
      body(
        [
          { name: "Moving Suite", quantity: 2, price: 14.25 },
          { name: "Moving API", quantity: 10, price: 0.0041 },
          { name: "Steady License", quantity: 1, price: 19.99 },
        ],
        key,
      ),
    );
    expect(retried.statusCode).toBe(201);
    const placed = await getOrder(buyer, retried.json().orderId);
    // 2 × 14.25 + 10 × 0.0041 (0.041, owed as 0.04) + 19.99 = 48.53; tax 2.4265 → 2.43 (half up).
    expect(placed).toMatchObject({ subtotal: 48.53, tax: 2.43, totalAmount: 50.96 });
    expect(placed.items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ productName: "Moving Suite", price: 14.25, quantity: 2 }),
        expect.objectContaining({ productName: "Moving API", price: 0.0041, quantity: 10 }),
      ]),
    );
    expect(await orderCount()).toBe(before + 1);
  });

  test("shown prices equal to the database's, however written, are ordered (201)", async () => {
    const res = await buyer.post(
      "/api/orders",
      body([
        { name: "Steady License", quantity: 3, price: 19.99 },
        { name: "Keyed Board", quantity: 1, price: 40 },
      ]),
    );
    expect(res.statusCode).toBe(201);
    expect(await getOrder(buyer, res.json().orderId)).toMatchObject({
      subtotal: 99.97,
      totalAmount: 104.97,
    });
  });

  test("a client claiming a lower price than the server's is refused, never charged at it", async () => {
    const before = await orderCount();
    const res = await buyer.post("/api/orders", body([{ name: "Steady License", quantity: 3, price: 0.01 }]));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: "PRICE_CHANGED",
      details: {
        changes: [
          { productId: id("Steady License"), name: "Steady License", oldPrice: 0.01, newPrice: 19.99 },
        ],
      },
    });
    expect(await orderCount()).toBe(before);
  });

  test("an order without the shown prices is refused as invalid", async () => {
    const res = await buyer.post("/api/orders", {
      ...body([{ name: "Steady License", quantity: 1, price: 19.99 }]),
      items: [{ productId: id("Steady License"), quantity: 1 }],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().details.map((d: { message: string }) => d.message)).toContain("Price must be a number");
  });

  test("the same idempotency key answers with the order it made, even after the price moved", async () => {
    const key = randomUUID();
    const first = await buyer.post(
      "/api/orders",
      body([{ name: "Keyed Board", quantity: 1, price: 40 }], key),
    );
    expect(first.statusCode).toBe(201);
    await setPrice("Keyed Board", "45");
    const again = await buyer.post(
      "/api/orders",
      body([{ name: "Keyed Board", quantity: 1, price: 40 }], key),
    );
    expect(again.statusCode).toBe(200);
    expect(again.json().orderId).toBe(first.json().orderId);
    expect(await getOrder(buyer, again.json().orderId)).toMatchObject({ subtotal: 40 });
    expect(await withKey(key)).toHaveLength(1);
  });
});
