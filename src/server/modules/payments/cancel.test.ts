import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { PaymentMethod } from "#domain/checkout";
import { licenses } from "#server/db/schema/after-sale";
import { auditLog } from "#server/db/schema/audit";
import { products } from "#server/db/schema/catalog";
import { payments } from "#server/db/schema/payments";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import { firstOpenOrder } from "#server/modules/privacy/repository";
import { createTestApp } from "#server/test/app";
import { createClient, signedInClient } from "#server/test/client";
import { placeOrder } from "#server/test/orders";
import { choose, eventsDelivered, getOrder, payOrder, testRef } from "#server/test/payments";

// Issue 30, item 7: an order awaiting payment can be paid now (the same provider flow) or cancelled.

let t: Awaited<ReturnType<typeof createTestApp>>;
let buyer: ReturnType<typeof createClient>;
let other: ReturnType<typeof createClient>;
let buyerId = "";
let productId = "";

beforeAll(async () => {
  t = await createTestApp({ seed: true });
  buyer = await signedInClient(t.app, "buyer@stackbay.test", DEMO_PASSWORD);
  other = await signedInClient(t.app, "seller@stackbay.test", DEMO_PASSWORD);
  buyerId = (await buyer.get("/api/me")).json().user.id;
  const [made] = await t.db
    .insert(products)
    .values({ name: "Cancel Seat", category: "software", price: "19.99", vendor: "Acme" })
    .returning({ id: products.id });
  productId = made?.id ?? "";
});
afterAll(() => t.close());

async function place(paymentMethod: PaymentMethod = "stripe") {
  return placeOrder(buyer, { paymentMethod, items: [{ productId, price: 19.99 }] });
}

const cancel = (client: ReturnType<typeof createClient>, orderId: string) =>
  client.post(`/api/orders/${orderId}/cancel`);
const attempts = (orderId: string) =>
  t.db.select().from(payments).where(eq(payments.orderId, orderId)).orderBy(payments.attempt);

describe("Pay now: resuming an order that awaits payment", () => {
  test("answers the same provider page for the open attempt, and a cancelled order is not paid again", async () => {
    const placed = await place();
    const resumed = await buyer.post(`/api/orders/${placed.orderId}/payment`);
    expect(resumed.statusCode).toBe(200);
    expect(testRef(resumed.json().redirectUrl)).toBe(testRef(placed.redirectUrl));
    expect(await attempts(placed.orderId)).toHaveLength(1);

    expect((await cancel(buyer, placed.orderId)).statusCode).toBe(200);
    const again = await buyer.post(`/api/orders/${placed.orderId}/payment`);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe("ORDER_CANCELLED");
    expect(await attempts(placed.orderId)).toHaveLength(1);
  });
});

describe("Cancel: an order awaiting payment", () => {
  test("the buyer cancels: the attempt is cancelled, the order reads Cancelled, audited, deletion no longer blocked", async () => {
    const placed = await place();
    expect(await firstOpenOrder(t.db, buyerId)).not.toBeNull();

    const res = await cancel(buyer, placed.orderId);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      orderId: placed.orderId,
      paymentStatus: "failed",
      payment: { attempt: 1, state: "cancelled" },
    });
    const order = await getOrder(buyer, placed.orderId);
    expect(order.paymentStatus).toBe("failed");
    expect(order.cancelledAt).not.toBeNull();
    const audit = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, "order"), eq(auditLog.entityId, placed.orderId)));
    expect(audit).toHaveLength(1);
    expect(audit[0]?.actorId).toBe(buyerId);
    // Nothing else was reserved (no stock, no code), so nothing of this order blocks account deletion.
    const open = await firstOpenOrder(t.db, buyerId);
    expect(open?.id).not.toBe(placed.orderId);
  });

  test("cancelling again answers the same and writes nothing more", async () => {
    const placed = await place();
    const first = await cancel(buyer, placed.orderId);
    const cancelledAt = (await getOrder(buyer, placed.orderId)).cancelledAt;
    const second = await cancel(buyer, placed.orderId);
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual(first.json());
    expect((await getOrder(buyer, placed.orderId)).cancelledAt).toBe(cancelledAt);
    const audit = await t.db.select().from(auditLog).where(eq(auditLog.entityId, placed.orderId));
    expect(audit).toHaveLength(1);
  });

  test("only its buyer may cancel it: anyone else's attempt answers 404 and changes nothing", async () => {
    const placed = await place();
    const res = await cancel(other, placed.orderId);
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe("ORDER_NOT_FOUND");
    expect((await getOrder(buyer, placed.orderId)).paymentStatus).toBe("pending");
    expect((await cancel(createClient(t.app), placed.orderId)).statusCode).toBe(401);
  });

  test("a paid order is not awaiting payment: 409 ORDER_NOT_CANCELLABLE", async () => {
    const placed = await place();
    expect((await payOrder(t.app, buyer, placed.orderId)).paymentStatus).toBe("mock_confirmed");
    const res = await cancel(buyer, placed.orderId);
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe("ORDER_NOT_CANCELLABLE");
    const order = await getOrder(buyer, placed.orderId);
    expect(order).toMatchObject({ paymentStatus: "mock_confirmed", cancelledAt: null });
  });

  test("a bank transfer awaiting its money can be cancelled", async () => {
    const placed = await place("bank-transfer");
    expect((await getOrder(buyer, placed.orderId)).paymentStatus).toBe("processing");
    expect((await cancel(buyer, placed.orderId)).statusCode).toBe(200);
    const order = await getOrder(buyer, placed.orderId);
    expect(order.paymentStatus).toBe("failed");
    expect(order.cancelledAt).not.toBeNull();
  });

  test("a late payment for a cancelled order follows the expiry's rule: the money was taken, so it is delivered once", async () => {
    const placed = await place();
    expect((await cancel(buyer, placed.orderId)).statusCode).toBe(200);
    // The provider's page was still open in another tab: the buyer pays there after all.
    await choose(buyer, placed.redirectUrl, "pay");
    await eventsDelivered(t.app);
    const order = await getOrder(buyer, placed.orderId);
    expect(order).toMatchObject({ paymentStatus: "mock_confirmed", isPaid: true });
    expect(await t.db.select().from(licenses).where(eq(licenses.orderId, placed.orderId))).toHaveLength(1);
    // The return page leaves it as it is.
    const back = await buyer.post(`/api/orders/${placed.orderId}/payment/complete`, { query: {} });
    expect(back.json().paymentStatus).toBe("mock_confirmed");
  });
});
