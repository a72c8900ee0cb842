import { randomUUID } from "node:crypto";
import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { PlaceOrderInput } from "#domain/checkout";
import { createOrGrantAccount } from "#server/auth/users";
import { auditLog } from "#server/db/schema/audit";
import { categories, products } from "#server/db/schema/catalog";
import { orders } from "#server/db/schema/orders";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import { createTestApp } from "#server/test/app";
import { type createClient, createVerifiedAccount, signedInClient } from "#server/test/client";
import { type OrderLine, orderBody, placeAndPay, placeOrder } from "#server/test/orders";
import { getOrder, payOrder } from "#server/test/payments";

let t: Awaited<ReturnType<typeof createTestApp>>;
let buyer: ReturnType<typeof createClient>;
const ids: Record<string, string> = {};
const prices: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp({ seed: true });
  buyer = await signedInClient(t.app, "buyer@stackbay.test", DEMO_PASSWORD);
  const made = await t.db
    .insert(products)
    .values([
      { name: "Dime Widget", category: "apis", price: "0.1", vendor: "Acme" },
      { name: "Two Dime Widget", category: "apis", price: "0.2", vendor: "Acme" },
      { name: "Sensor Call", category: "apis", price: "0.003", vendor: "Acme" },
      { name: "Seat License", category: "software", price: "19.99", vendor: "Acme" },
      { name: "Retired Gadget", category: "hardware", price: "50", vendor: "Acme", isActive: false },
    ])
    .returning({ id: products.id, name: products.name, price: products.price });
  for (const row of made) {
    ids[row.name] = row.id;
    prices[row.name] = Number(row.price);
  }
});
afterAll(() => t.close());

/** The order request itself is this file's subject: each test builds its body and reads the answer. */
const order = (items: OrderLine[], extra: Partial<PlaceOrderInput> = {}) =>
  orderBody({ paymentMethod: "paypal", items, ...extra });
/** A line as the web app sends it, with the unit price the buyer was shown. */
const line = (name: string, quantity = 1) => ({
  productId: ids[name] ?? "",
  quantity,
  price: prices[name] ?? 0,
});

describe("checkout", () => {
  test("the server prices the order; totals and statuses sent by the browser are ignored", async () => {
    // A lower unit price than the server's is refused as PRICE_CHANGED (see price-check.test.ts).
    const res = await buyer.post("/api/orders", {
      ...order([line("Seat License", 3), line("Dime Widget", 2)]),
      subtotal: 1,
      tax: 0,
      total: 1,
      totalAmount: 1,
      paymentStatus: "paid",
      userId: "someone-else",
    });
    expect(res.statusCode).toBe(201);
    const placed = await getOrder(buyer, res.json().orderId);
    expect(placed).toMatchObject({
      subtotal: 60.17,
      // 5% of 60.17 is 3.0085: to the cent, half up.
      tax: 3.01,
      totalAmount: 63.18,
      paymentMethod: "paypal",
      // Only the payment provider's answer confirms it (see payments.test.ts).
      paymentStatus: "pending",
      isPaid: false,
      currency: "USD",
      fxRate: 1,
      customerInfo: { fullName: "Bianca Buyer", city: "Dubai" },
    });
    expect(placed.items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ productName: "Seat License", price: 19.99, quantity: 3, vendor: "Acme" }),
        expect.objectContaining({ productName: "Dime Widget", price: 0.1, quantity: 2 }),
      ]),
    );
  });

  test("totals are exact for awkward prices, in whole cents; tax is 5% rounded half up to the cent", async () => {
    const tenths = (
      await buyer.post("/api/orders", order([line("Dime Widget"), line("Two Dime Widget")]))
    ).json();
    expect(await getOrder(buyer, tenths.orderId)).toMatchObject({
      subtotal: 0.3,
      // 5% of 0.30 is 0.015: half a cent rounds up.
      tax: 0.02,
      totalAmount: 0.32,
    });
    // 3 calls at $0.003 are $0.009, owed as $0.01; its 5% is a twentieth of a cent: no tax.
    const tiny = (await buyer.post("/api/orders", order([line("Sensor Call", 3)]))).json();
    expect(await getOrder(buyer, tiny.orderId)).toMatchObject({
      subtotal: 0.01,
      tax: 0,
      totalAmount: 0.01,
    });
  });

  test("the display currency and the rate used are recorded", async () => {
    const res = await buyer.post("/api/orders", order([line("Seat License")], { currency: "EUR" }));
    expect(await getOrder(buyer, res.json().orderId)).toMatchObject({
      currency: "EUR",
      fxRate: 0.9384,
      totalAmount: 20.99,
    });
  });

  test("inactive and unknown products are refused by name, and nothing is stored", async () => {
    const before = (await t.db.select({ n: count() }).from(orders))[0]?.n;
    const res = await buyer.post("/api/orders", order([line("Seat License"), line("Retired Gadget")]));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: "PRODUCT_UNAVAILABLE",
      message:
        "These items are no longer available: Retired Gadget. Remove them from your cart and try again.",
      details: { productIds: [ids["Retired Gadget"]] },
    });
    const unknown = await buyer.post(
      "/api/orders",
      order([{ productId: randomUUID(), quantity: 1, price: 1 }]),
    );
    expect(unknown.statusCode).toBe(409);
    expect((await t.db.select({ n: count() }).from(orders))[0]?.n).toBe(before);
  });

  test.each([
    [[{ quantity: 0 }], "Quantity must be at least 1"],
    [[{ quantity: 1000 }], "Quantity must be at most 99"],
    [[{ quantity: 1.5 }], "Quantity must be a whole number"],
    [[], "Please add items to your cart before checking out."],
  ])("items %j are refused with '%s'", async (items, message) => {
    const body = order(items.map((item) => ({ ...line("Seat License"), ...item })));
    const res = await buyer.post("/api/orders", body);
    expect(res.statusCode).toBe(400);
    expect(res.json().details.map((d: { message: string }) => d.message)).toContain(message);
  });

  test("the same product twice is one line, still capped at 99", async () => {
    const res = await buyer.post("/api/orders", order([line("Seat License", 60), line("Seat License", 40)]));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe("Quantity must be at most 99");
  });

  test("billing fields carry the spec's texts", async () => {
    const res = await buyer.post("/api/orders", {
      ...order([line("Seat License")]),
      fullName: "B",
      email: "nope",
      address: "1",
      city: "D",
      country: "",
      paymentMethod: "bitcoin",
    });
    expect(res.json().details.map((d: { message: string }) => d.message)).toEqual([
      "Full name must be at least 2 characters",
      "Please enter a valid email address",
      "Please enter a valid address",
      "Please enter a valid city",
      "Please select a country",
      "Please select a payment method",
    ]);
  });

  test("a double submit creates one order, even when both requests race", async () => {
    const body = order([line("Seat License")]);
    const [a, b] = await Promise.all([buyer.post("/api/orders", body), buyer.post("/api/orders", body)]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 201]);
    expect(a.json().orderId).toBe(b.json().orderId);
    // Both are sent to the same payment session: the order has one attempt.
    expect(a.json().redirectUrl).toBe(b.json().redirectUrl);
    const again = await buyer.post("/api/orders", body);
    expect(again.statusCode).toBe(200);
    expect(again.json().orderId).toBe(a.json().orderId);
    const rows = await t.db.select().from(orders).where(eq(orders.idempotencyKey, body.idempotencyKey));
    expect(rows).toHaveLength(1);
  });

  test("a declined payment keeps the order as failed; the same checkout pays it, no second order", async () => {
    const payer = await createTestApp();
    try {
      await payer.db.insert(categories).values({ name: "APIs", slug: "apis" });
      const [product] = await payer.db
        .insert(products)
        .values({ name: "Geocoder", category: "apis", price: "5" })
        .returning({ id: products.id });
      await createOrGrantAccount(payer.db, {
        email: "payer@example.com",
        password: "payer-password",
        firstName: "Pat",
        lastName: "Payer",
        roles: ["buyer"],
      });
      const client = await signedInClient(payer.app, "payer@example.com", "payer-password");
      const body = order([{ productId: product?.id ?? "", quantity: 1, price: 5 }]);
      const res = await client.post("/api/orders", body);
      expect(res.statusCode).toBe(201);
      await payOrder(payer.app, client, res.json().orderId, "decline");
      const mine = (await client.get("/api/orders")).json();
      expect(mine.items[0]).toMatchObject({ paymentStatus: "failed", isPaid: false });
      expect(mine.stats).toMatchObject({ totalOrders: 1, completedOrders: 0, totalSpent: 0 });

      // Trying the same checkout again starts a new attempt on the same order.
      const retried = await client.post("/api/orders", body);
      expect(retried.statusCode).toBe(200);
      expect(retried.json().orderId).toBe(mine.items[0].id);
      expect(await payOrder(payer.app, client, retried.json().orderId)).toMatchObject({
        id: mine.items[0].id,
        paymentStatus: "mock_confirmed",
        isPaid: true,
      });
      expect((await client.get("/api/orders")).json().stats).toMatchObject({
        totalOrders: 1,
        completedOrders: 1,
      });
    } finally {
      await payer.close();
    }
  });
});

describe("orders", () => {
  test("a user sees only their own orders, newest first, with the dashboard figures", async () => {
    const stranger = await createVerifiedAccount(t.app, t.dataDir, {
      email: `stranger.${Date.now()}@example.com`,
    });
    const other = await signedInClient(t.app, stranger.email, stranger.password);
    const theirs = await placeAndPay(t.app, other, {
      paymentMethod: "paypal",
      items: [line("Seat License", 2)],
    });

    const mineRes = await buyer.get("/api/orders");
    // Someone's orders are never kept by a shared cache (app.ts answers private, no-store by default).
    expect(mineRes.headers["cache-control"]).toBe("private, no-store");
    const mine = mineRes.json();
    expect(mine.items.length).toBeGreaterThan(0);
    expect(mine.items.some((o: { id: string }) => o.id === theirs.id)).toBe(false);
    const dates = mine.items.map((o: { createdAt: string }) => o.createdAt);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(mine.stats.totalOrders).toBe(mine.items.length);

    const theirList = (await other.get("/api/orders")).json();
    expect(theirList.stats).toEqual({ totalOrders: 1, totalSpent: 41.98, completedOrders: 1 });

    expect((await buyer.get(`/api/orders/${theirs.id}`)).statusCode).toBe(404);
    expect((await other.get(`/api/orders/${theirs.id}`)).json().order.id).toBe(theirs.id);
  });

  test("only admins change an order's status", async () => {
    // A placed order waits for its payment, pending; a confirmed one only moves through refunds.
    const placed = { id: (await placeOrder(buyer, { items: [line("Dime Widget")] })).orderId };
    const update = { paymentStatus: "processing" };
    const refused = await buyer.patch(`/api/admin/orders/${placed.id}`, update);
    expect(refused.statusCode).toBe(403);

    const admin = await signedInClient(t.app, "admin@stackbay.test", DEMO_PASSWORD);
    const res = await admin.patch(`/api/admin/orders/${placed.id}`, update);
    expect(res.statusCode).toBe(200);
    expect(res.json().order).toMatchObject({ paymentStatus: "processing", isPaid: false });
    // The change is on the audit trail with who made it and the before/after of the changed fields.
    const trail = await t.db.select().from(auditLog).where(eq(auditLog.entityId, placed.id));
    expect(trail).toHaveLength(1);
    expect(trail[0]).toMatchObject({
      actorEmail: "admin@stackbay.test",
      action: "update",
      entityType: "order",
      changes: { paymentStatus: { before: "pending", after: "processing" } },
    });
    expect((await admin.get(`/api/orders/${placed.id}`)).statusCode).toBe(200);
    expect((await admin.patch(`/api/admin/orders/${randomUUID()}`, update)).statusCode).toBe(404);
    const bad = await admin.patch(`/api/admin/orders/${placed.id}`, { paymentStatus: "shipped" });
    expect(bad.json().details[0].message).toBe(
      "Status must be pending, processing, failed or mock_confirmed",
    );
  });

  test("admins list every order with the buyer's account, filter by status and page", async () => {
    const admin = await signedInClient(t.app, "admin@stackbay.test", DEMO_PASSWORD);
    const all = (await admin.get("/api/admin/orders")).json();
    expect(all.total).toBe((await t.db.select({ n: count() }).from(orders))[0]?.n);
    expect(all.pageSize).toBe(25);
    expect(
      new Set(all.items.map((o: { accountEmail: string }) => o.accountEmail)).has("buyer@stackbay.test"),
    ).toBe(true);
    const processing = (await admin.get("/api/admin/orders?status=processing")).json();
    expect(processing.items.length).toBeGreaterThan(0);
    expect(processing.items.every((o: { paymentStatus: string }) => o.paymentStatus === "processing")).toBe(
      true,
    );
    expect((await admin.get("/api/admin/orders?status=shipped")).statusCode).toBe(400);
    expect((await admin.get("/api/admin/orders?page=2")).json().page).toBe(2);
    expect((await buyer.get("/api/admin/orders")).statusCode).toBe(403);
  });
});
