import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { invoiceNumber } from "#domain/invoice";
import { products } from "#server/db/schema/catalog";
import { orderItems, orders } from "#server/db/schema/orders";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import { createTestApp } from "#server/test/app";
import { createClient, signedInClient } from "#server/test/client";
import { placeAndPay } from "#server/test/orders";

let t: Awaited<ReturnType<typeof createTestApp>>;
let buyer: ReturnType<typeof createClient>;
let productId: string;
let placed: { id: string; items: { id: string }[] };

const billing = {
  fullName: 'Bianca <script>alert("x")</script> Buyer',
  email: "buyer@stackbay.test",
  address: "12 Harbour Street & Co",
  city: "Dubai",
  country: "United Arab Emirates",
  paymentMethod: "paypal" as const,
};

beforeAll(async () => {
  t = await createTestApp({ seed: true });
  buyer = await signedInClient(t.app, "buyer@stackbay.test", DEMO_PASSWORD);
  const [product] = await t.db
    .insert(products)
    .values({ name: "Seat <License>", category: "software", price: "19.99", vendor: "Acme & Sons" })
    .returning({ id: products.id });
  productId = product?.id ?? "";
  placed = await placeAndPay(t.app, buyer, {
    ...billing,
    items: [{ productId, quantity: 2, price: 19.99 }],
    currency: "EUR",
  });
});
afterAll(() => t.close());

const url = (id: string) => `/api/orders/${id}/invoice.html`;

describe("GET /api/orders/{id}/invoice.html", () => {
  test("the buyer downloads a standalone HTML invoice with the seller of record and escaped values", async () => {
    const res = await buyer.get(url(placed.id));
    expect(res.statusCode).toBe(200);
    const number = invoiceNumber(placed.id);
    expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(res.headers["content-disposition"]).toBe(`attachment; filename="stackbay-invoice-${number}.html"`);
    expect(res.headers["cache-control"]).toBe("private, no-store");
    const html = res.body;
    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(html).toContain("@media print");
    for (const text of [
      "Invoice",
      number,
      "Stackbay FZCO",
      "Dubai Silicon Oasis",
      "United Arab Emirates",
      "Seat &lt;License&gt;",
      "Acme &amp; Sons",
      "$19.99",
      "$39.98",
      "Subtotal",
      "UAE VAT (5%)",
      // 5% of 39.98 is 1.999: to the cent.
      "$2.00",
      "TRN: 100000000000000 (demo)",
      "$41.98 USD",
      // 41.98 × 0.9384 = 39.3940: an amount owed, to the cent.
      "Shown at checkout as €39.39 at 1 USD = 0.9384 EUR",
      "PayPal",
      "Paid",
      "Bianca &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; Buyer",
      "12 Harbour Street &amp; Co",
    ]) {
      expect(html).toContain(text);
    }
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("Seat <License>");
  });

  test("refunded items are marked", async () => {
    await t.db.update(orderItems).set({ refundStatus: "refunded" }).where(eq(orderItems.orderId, placed.id));
    await t.db.update(orders).set({ paymentStatus: "refunded" }).where(eq(orders.id, placed.id));
    try {
      const html = (await buyer.get(url(placed.id))).body;
      expect(html).toContain('<span class="refunded">Refunded</span>');
      expect(html).toMatch(/<dt>Status<\/dt><dd>Refunded<\/dd>/);
    } finally {
      await t.db.update(orderItems).set({ refundStatus: "none" }).where(eq(orderItems.orderId, placed.id));
      await t.db.update(orders).set({ paymentStatus: "mock_confirmed" }).where(eq(orders.id, placed.id));
    }
  });

  test("an admin may download any invoice", async () => {
    const admin = await signedInClient(t.app, "admin@stackbay.test", DEMO_PASSWORD);
    const res = await admin.get(url(placed.id));
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(invoiceNumber(placed.id));
  });

  test("another user gets 404, as if the order did not exist; anonymous gets 401", async () => {
    const seller = await signedInClient(t.app, "seller@stackbay.test", DEMO_PASSWORD);
    const res = await seller.get(url(placed.id));
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: "ORDER_NOT_FOUND", message: "Order not found." });
    expect(res.body).not.toContain("Bianca");
    expect((await seller.get(url(randomUUID()))).json()).toEqual(res.json());
    expect((await createClient(t.app).get(url(placed.id))).statusCode).toBe(401);
    expect((await buyer.get(url("not-a-uuid"))).statusCode).toBe(400);
  });

  test("an order whose payment is not confirmed has no invoice", async () => {
    for (const status of ["pending", "processing", "failed"]) {
      await t.db.update(orders).set({ paymentStatus: status, isPaid: false }).where(eq(orders.id, placed.id));
      const res = await buyer.get(url(placed.id));
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({
        code: "INVOICE_NOT_AVAILABLE",
        message: "This order has no invoice yet: an invoice is issued once the payment is confirmed.",
      });
    }
    await t.db
      .update(orders)
      .set({ paymentStatus: "mock_confirmed", isPaid: true })
      .where(eq(orders.id, placed.id));
    expect((await buyer.get(url(placed.id))).statusCode).toBe(200);
  });
});
