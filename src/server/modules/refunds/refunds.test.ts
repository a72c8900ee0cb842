import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Order } from "#domain/checkout";
import { DAY_MS } from "#domain/dates";
import { REFUND_PAYOUT_NOTE } from "#domain/refunds";
import { commissions, licenses, refundRequests } from "#server/db/schema/after-sale";
import { auditLog } from "#server/db/schema/audit";
import { user } from "#server/db/schema/auth";
import { products } from "#server/db/schema/catalog";
import { orderItems, orders } from "#server/db/schema/orders";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import { createTestApp } from "#server/test/app";
import { createVerifiedAccount, signedInClient } from "#server/test/client";
import { placeAndPay } from "#server/test/orders";
import { readOutbox } from "#server/test/outbox";

let t: Awaited<ReturnType<typeof createTestApp>>;
type Client = Awaited<ReturnType<typeof signedInClient>>;
let buyer: Client;
let seller: Client;
let admin: Client;
let stranger: Client;
let software: string;
let hardware: string;
/** Unit prices by product id, sent with each order as the prices the buyer was shown. */
const prices: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp({ seed: true });
  buyer = await signedInClient(t.app, "buyer@stackbay.test", DEMO_PASSWORD);
  seller = await signedInClient(t.app, "seller@stackbay.test", DEMO_PASSWORD);
  admin = await signedInClient(t.app, "admin@stackbay.test", DEMO_PASSWORD);
  // Another seller, who has no part in the buyer's orders.
  const other = await createVerifiedAccount(t.app, t.dataDir, { email: "other-seller@refunds.test" });
  await t.db.update(user).set({ isSeller: true }).where(eq(user.email, other.email));
  stranger = await signedInClient(t.app, other.email, other.password);
  const pick = async (category: string) => {
    const [row] = await t.db
      .select({ id: products.id, price: products.price })
      .from(products)
      .where(
        and(
          eq(products.category, category),
          eq(products.isActive, true),
          sql`${products.sellerId} = (select id from users where email = 'seller@stackbay.test')`,
        ),
      )
      .limit(1);
    if (row) prices[row.id] = Number(row.price);
    return row?.id ?? "";
  };
  software = await pick("software");
  hardware = await pick("hardware");
});
afterAll(() => t.close());

async function buy(...productIds: string[]): Promise<Order> {
  const items = productIds.map((productId) => ({ productId, price: prices[productId] ?? 0 }));
  return placeAndPay(t.app, buyer, { country: "Portugal", items });
}

const itemOf = (order: Order, productId: string) =>
  order.items.find((i) => i.productId === productId)?.id ?? "";
const ask = (
  client: Client,
  order: Order,
  itemId: string,
  reason = "The license does not activate on our servers.",
) => client.post(`/api/orders/${order.id}/items/${itemId}/refund`, { reason });
const decide = (client: Client, id: string, decision: string, note?: string) =>
  client.post(`/api/refunds/${id}/decision`, note ? { decision, note } : { decision });

describe("refunds", () => {
  test("the seller approves: the item is refunded, its licenses revoked, its commission cancelled, the buyer told", async () => {
    const order = await buy(software, hardware);
    const itemId = itemOf(order, software);
    // A pending commission on the item, as a reseller's referral would have made.
    const [reseller] = await t.db.select().from(user).where(eq(user.email, "reseller@stackbay.test"));
    await t.db.insert(commissions).values({
      orderItemId: itemId,
      orderId: order.id,
      resellerId: reseller?.id ?? "",
      productId: software,
      rate: "0.1000",
      amount: "1.0000",
      status: "pending",
      eligibleAt: new Date(Date.now() + 14 * DAY_MS),
    });

    const asked = await ask(buyer, order, itemId);
    expect(asked.statusCode).toBe(201);
    const refund = asked.json().refund;
    expect(refund.status).toBe("requested");
    // Three business days later, never less than three calendar days.
    expect(new Date(refund.sellerDueAt).getTime() - Date.now()).toBeGreaterThan(3 * DAY_MS - 60_000);
    const sellerMail = (await readOutbox(t.dataDir)).filter((m) => m.to === "seller@stackbay.test").at(-1);
    expect(sellerMail?.subject).toMatch(/^Refund requested: /);

    expect((await ask(buyer, order, itemId)).json().code).toBe("REFUND_EXISTS");
    const listRes = await seller.get("/api/seller/refunds");
    expect(listRes.headers["cache-control"]).toBe("private, no-store");
    const list = listRes.json();
    expect(list.items[0]).toMatchObject({ id: refund.id, status: "requested", buyerName: "Bianca Buyer" });
    expect((await stranger.get("/api/seller/refunds")).json().total).toBe(0);

    // Only the allowed party may take each step.
    expect((await decide(buyer, refund.id, "approve")).json().code).toBe("REFUND_STEP_NOT_ALLOWED");
    expect((await decide(buyer, refund.id, "escalate")).json().code).toBe("REFUND_STEP_NOT_ALLOWED");
    expect((await decide(stranger, refund.id, "approve")).statusCode).toBe(404);
    expect((await decide(admin, refund.id, "approve")).json().code).toBe("REFUND_STEP_NOT_ALLOWED");

    const approved = await decide(seller, refund.id, "approve", "Sorry about that.");
    expect(approved.statusCode).toBe(200);
    expect(approved.json().refund.status).toBe("approved");

    const after = (await buyer.get(`/api/orders/${order.id}`)).json().order as Order;
    expect(after.paymentStatus).toBe("partially_refunded");
    const item = after.items.find((i) => i.id === itemId);
    expect(item).toMatchObject({ refundStatus: "refunded", refund: { status: "approved" } });
    const keys = await t.db.select().from(licenses).where(eq(licenses.orderItemId, itemId));
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.every((k) => k.status === "revoked" && k.revokedAt)).toBe(true);
    const [commission] = await t.db.select().from(commissions).where(eq(commissions.orderItemId, itemId));
    expect(commission?.status).toBe("cancelled");

    const buyerMails = (await readOutbox(t.dataDir)).filter((m) => m.to === "buyer@stackbay.test");
    const approvedMail = buyerMails.find((m) => /refund .* is approved/.test(m.subject));
    expect(approvedMail?.body).toContain(REFUND_PAYOUT_NOTE);
    // The money went back through the provider the order was paid with, and the buyer was told.
    expect(buyerMails.filter((m) => / has been sent$/.test(m.subject))).toHaveLength(1);

    const trail = await t.db.select().from(auditLog).where(eq(auditLog.entityId, refund.id));
    expect(trail.map((e) => [e.action, e.actorEmail]).sort()).toEqual([
      ["create", "buyer@stackbay.test"],
      ["update", "seller@stackbay.test"],
    ]);
    expect((await decide(seller, refund.id, "reject")).json().code).toBe("REFUND_STEP_NOT_ALLOWED");
  });

  test("rejected by the seller, escalated by the buyer, decided by the platform; the last item refunds the order", async () => {
    const order = await buy(hardware);
    const refund = (await ask(buyer, order, itemOf(order, hardware))).json().refund;
    expect((await decide(seller, refund.id, "reject", "It was used.")).json().refund.status).toBe(
      "seller_rejected",
    );
    expect((await decide(admin, refund.id, "approve")).json().code).toBe("REFUND_STEP_NOT_ALLOWED");
    expect((await decide(buyer, refund.id, "escalate")).json().refund.status).toBe("escalated");
    expect((await decide(seller, refund.id, "approve")).json().code).toBe("REFUND_STEP_NOT_ALLOWED");

    const escalated = (await admin.get("/api/admin/refunds?status=escalated")).json();
    expect(escalated.items.map((r: { id: string }) => r.id)).toContain(refund.id);
    expect(
      (await admin.post(`/api/refunds/${refund.id}/decision`, { decision: "approve", note: "Fair" }))
        .statusCode,
    ).toBe(200);
    const after = (await buyer.get(`/api/orders/${order.id}`)).json().order as Order;
    expect(after.paymentStatus).toBe("refunded");
    expect(after.items[0]?.refund).toMatchObject({
      status: "approved",
      sellerNote: "It was used.",
      platformNote: "Fair",
    });
  });

  test("two items of one order approved at the same moment leave the order refunded, not partially", async () => {
    const order = await buy(software, hardware);
    const asked = await Promise.all(
      [software, hardware].map(async (product) => (await ask(buyer, order, itemOf(order, product))).json()),
    );
    const answers = await Promise.all(asked.map(({ refund }) => decide(seller, refund.id, "approve")));
    expect(answers.map((res) => res.statusCode)).toEqual([200, 200]);
    const after = (await buyer.get(`/api/orders/${order.id}`)).json().order as Order;
    expect(after.items.map((item) => item.refundStatus)).toEqual(["refunded", "refunded"]);
    expect(after.paymentStatus).toBe("refunded");
  });

  test("an unanswered request can be escalated once the seller's deadline has passed; the platform may decline", async () => {
    const order = await buy(hardware);
    const refund = (await ask(buyer, order, itemOf(order, hardware))).json().refund;
    await t.db
      .update(refundRequests)
      .set({ sellerDueAt: new Date(Date.now() - 60_000) })
      .where(eq(refundRequests.id, refund.id));
    expect((await decide(buyer, refund.id, "escalate")).json().refund.status).toBe("escalated");
    expect((await decide(admin, refund.id, "reject", "No evidence")).json().refund.status).toBe("rejected");
    const after = (await buyer.get(`/api/orders/${order.id}`)).json().order as Order;
    expect(after.paymentStatus).toBe("mock_confirmed");
    expect(after.items[0]?.refundStatus).toBe("none");
  });

  test("refused: someone else's order, an old order, a short reason, an unknown item", async () => {
    const order = await buy(hardware);
    const itemId = itemOf(order, hardware);
    expect((await ask(seller, order, itemId)).statusCode).toBe(404);
    expect((await ask(buyer, order, randomUUID())).statusCode).toBe(404);
    const short = await ask(buyer, order, itemId, "bad");
    expect(short.statusCode).toBe(400);
    expect(short.json().details[0].message).toBe("Please explain the reason in at least 10 characters");

    await t.db
      .update(orders)
      .set({ createdAt: new Date(Date.now() - 15 * DAY_MS) })
      .where(eq(orders.id, order.id));
    // Hardware's window counts from its delivery, here 15 days ago too.
    const longAgo = new Date(Date.now() - 15 * DAY_MS);
    await t.db
      .update(orderItems)
      .set({
        shippingState: "delivered",
        carrier: "DHL",
        trackingNumber: "JD0001",
        shippedAt: longAgo,
        deliveredAt: longAgo,
        deliveredBy: "buyer",
      })
      .where(eq(orderItems.id, itemId));
    const late = await ask(buyer, order, itemId);
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ code: "REFUND_WINDOW_CLOSED" });
    expect((await t.db.select().from(orderItems).where(eq(orderItems.id, itemId)))[0]?.refundStatus).toBe(
      "none",
    );
  });
});
