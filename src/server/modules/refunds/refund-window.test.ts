import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Order } from "#domain/checkout";
import { DAY_MS } from "#domain/dates";
import { products } from "#server/db/schema/catalog";
import { orders } from "#server/db/schema/orders";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import { createTestApp } from "#server/test/app";
import { signedInClient } from "#server/test/client";
import { placeAndPay } from "#server/test/orders";

/** A window other than the default 14 days: every answer must follow the configuration. */
const WINDOW_DAYS = 3;

let t: Awaited<ReturnType<typeof createTestApp>>;
let buyer: Awaited<ReturnType<typeof signedInClient>>;
let product: { id: string; price: string };

beforeAll(async () => {
  t = await createTestApp({ seed: true, env: { REFUND_WINDOW_DAYS: String(WINDOW_DAYS) } });
  buyer = await signedInClient(t.app, "buyer@stackbay.test", DEMO_PASSWORD);
  const [row] = await t.db
    .select({ id: products.id, price: products.price })
    .from(products)
    .where(and(eq(products.category, "software"), eq(products.isActive, true)))
    .limit(1);
  if (!row) throw new Error("the seed has no active software product");
  product = row;
});
afterAll(() => t.close());

async function buy(): Promise<Order> {
  return placeAndPay(t.app, buyer, {
    country: "Portugal",
    items: [{ productId: product.id, price: product.price }],
  });
}

const windowEnd = (order: Order) =>
  new Date(Date.parse(order.createdAt) + WINDOW_DAYS * DAY_MS).toISOString();

describe("the refund window follows REFUND_WINDOW_DAYS", () => {
  test("each order says until when it can be refunded, from the configured window", async () => {
    const placed = await buy();
    expect(placed.refundableUntil).toBe(windowEnd(placed));
    const list = await buyer.get("/api/orders");
    const listed = (list.json().items as Order[]).find((o) => o.id === placed.id);
    expect(listed?.refundableUntil).toBe(windowEnd(placed));
    const one = await buyer.get(`/api/orders/${placed.id}`);
    expect(one.json().order.refundableUntil).toBe(windowEnd(placed));
  });

  test("the server refuses a refund once that moment has passed, and grants one before", async () => {
    const inside = await buy();
    const early = await buyer.post(`/api/orders/${inside.id}/items/${inside.items[0]?.id}/refund`, {
      reason: "The license does not activate on our servers.",
    });
    expect(early.statusCode).toBe(201);

    const outside = await buy();
    // Older than the configured 3 days, though well inside the default 14.
    const orderedAt = new Date(Date.now() - (WINDOW_DAYS + 1) * DAY_MS);
    await t.db.update(orders).set({ createdAt: orderedAt }).where(eq(orders.id, outside.id));
    const aged = (await buyer.get(`/api/orders/${outside.id}`)).json().order as Order;
    expect(Date.parse(aged.refundableUntil)).toBeLessThan(Date.now());
    const late = await buyer.post(`/api/orders/${outside.id}/items/${outside.items[0]?.id}/refund`, {
      reason: "The license does not activate on our servers.",
    });
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ code: "REFUND_WINDOW_CLOSED" });
  });

  test("the reseller's links say how long commission waits: the same configured window", async () => {
    const reseller = await signedInClient(t.app, "reseller@stackbay.test", DEMO_PASSWORD);
    const res = await reseller.get("/api/reseller/links?pageSize=100");
    expect(res.statusCode).toBe(200);
    expect(res.json().refundWindowDays).toBe(WINDOW_DAYS);
  });
});
