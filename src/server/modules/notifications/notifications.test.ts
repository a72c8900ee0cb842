import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Order } from "#domain/checkout";
import type { Notification, NotificationList } from "#domain/notifications";
import { REFUND_MESSAGE_RATE_MAX, type RefundThread } from "#domain/refunds";
import { user } from "#server/db/schema/auth";
import { products } from "#server/db/schema/catalog";
import { notifications } from "#server/db/schema/notifications";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import { deliverInTx, settlementOf } from "#server/modules/settlement/service";
import { createTestApp } from "#server/test/app";
import { createClient, signedInClient } from "#server/test/client";
import { placeOrder } from "#server/test/orders";
import { readOutbox, waitForMail } from "#server/test/outbox";
import { payOrder } from "#server/test/payments";

let t: Awaited<ReturnType<typeof createTestApp>>;
type Client = Awaited<ReturnType<typeof signedInClient>>;
let buyer: Client;
let admin: Client;
let stranger: Client;
let seller: { client: Client; id: string; email: string; product: { id: string; price: number } };

beforeAll(async () => {
  // Seeded accounts only: the demo seed writes no notifications, so each list starts empty.
  t = await createTestApp({ seed: true });
  buyer = await signedInClient(t.app, "buyer@stackbay.test", DEMO_PASSWORD);
  admin = await signedInClient(t.app, "admin@stackbay.test", DEMO_PASSWORD);
  // Someone with no part in the buyer's orders or refunds.
  stranger = await signedInClient(t.app, "reseller@stackbay.test", DEMO_PASSWORD);
  const email = "seller@stackbay.test";
  const [me] = await t.db.select({ id: user.id }).from(user).where(eq(user.email, email));
  const [product] = await t.db
    .select({ id: products.id, price: products.price })
    .from(products)
    .where(
      and(
        eq(products.sellerId, me?.id ?? ""),
        eq(products.category, "hardware"),
        eq(products.isActive, true),
        eq(products.moderationStatus, "approved"),
      ),
    )
    .limit(1);
  if (!me || !product) throw new Error("the demo seller has no hardware product on sale");
  seller = {
    client: await signedInClient(t.app, email, DEMO_PASSWORD),
    id: me.id,
    email,
    product: { id: product.id, price: Number(product.price) },
  };
});
afterAll(() => t.close());

async function unpaidOrder(): Promise<string> {
  const placed = await placeOrder(buyer, {
    country: "Portugal",
    items: [{ productId: seller.product.id, price: seller.product.price }],
  });
  return placed.orderId;
}

const listOf = async (client: Client): Promise<Notification[]> => {
  const res = await client.get("/api/notifications");
  expect(res.statusCode).toBe(200);
  return (res.json() as NotificationList).items;
};
const unreadOf = async (client: Client): Promise<number> =>
  (await client.get("/api/notifications/unread-count")).json().unread;

let order: Order;

describe("notifications", () => {
  test("a sale notifies its seller in the sale's transaction: rolled back, nothing is written or mailed", {
    timeout: 120_000,
  }, async () => {
    const orderId = await unpaidOrder();
    const mailsToSeller = async () => (await readOutbox(t.dataDir)).filter((m) => m.to === seller.email);
    const mailedBefore = (await mailsToSeller()).length;
    const rows = () => t.db.select().from(notifications).where(eq(notifications.userId, seller.id));
    await expect(
      t.db.transaction(async (tx) => {
        expect(await deliverInTx(settlementOf(t.app), tx, orderId, "provider", new Date())).toBe(true);
        // The notification is there inside the transaction…
        const inside = await tx.select().from(notifications).where(eq(notifications.userId, seller.id));
        expect(inside).toHaveLength(1);
        throw new Error("the sale fails after delivery");
      }),
    ).rejects.toThrow("the sale fails after delivery");
    // …and gone with it, e-mail included.
    await t.app.jobs.idle();
    expect(await rows()).toHaveLength(0);
    expect(await mailsToSeller()).toHaveLength(mailedBefore);
    expect(await unreadOf(seller.client)).toBe(0);

    order = await payOrder(t.app, buyer, orderId);
    expect(order.paymentStatus).toBe("mock_confirmed");
    const [sale] = await listOf(seller.client);
    expect(sale).toMatchObject({
      kind: "sale",
      read: false,
      link: "/dashboard/shipping",
      action: "Ship the order",
    });
    expect(sale?.title).toMatch(/^New order to ship: /);
    expect(sale?.body).toContain("Please ship this item");
    expect(await unreadOf(seller.client)).toBe(1);
    // Sent by the mail job a moment later, from the stored notification.
    const mail = await waitForMail(
      t.dataDir,
      (m) => m.to === seller.email && m.subject === sale?.title,
      30_000,
    );
    expect(mail?.subject).toBe(sale?.title);
    expect(mail?.body).toContain("/dashboard/shipping");
  });

  test("each person reads and marks only their own notifications", async () => {
    const [sale] = await listOf(seller.client);
    const id = sale?.id ?? "";
    expect((await listOf(buyer)).some((n) => n.id === id)).toBe(false);
    // Someone else's notification is not found, and stays unread.
    expect((await buyer.post(`/api/notifications/${id}/read`)).statusCode).toBe(404);
    expect((await stranger.post(`/api/notifications/${id}/read`)).statusCode).toBe(404);
    expect(await unreadOf(seller.client)).toBe(1);
    expect((await createClient(t.app).get("/api/notifications")).statusCode).toBe(401);
    expect((await createClient(t.app).get("/api/notifications/unread-count")).statusCode).toBe(401);
    expect((await seller.client.post("/api/notifications/not-a-uuid/read")).statusCode).toBe(400);

    const read = await seller.client.post(`/api/notifications/${id}/read`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual({ unread: 0 });
    expect((await listOf(seller.client))[0]?.read).toBe(true);
  });

  test("mark all read clears the count of its reader only", async () => {
    // Two more sales for the seller.
    await payOrder(t.app, buyer, await unpaidOrder());
    await payOrder(t.app, buyer, await unpaidOrder());
    expect(await unreadOf(seller.client)).toBe(2);
    const buyerUnread = await unreadOf(buyer);
    const all = await seller.client.post("/api/notifications/read-all");
    expect(all.statusCode).toBe(200);
    expect(all.json()).toEqual({ unread: 0 });
    expect(await unreadOf(seller.client)).toBe(0);
    expect(await unreadOf(buyer)).toBe(buyerUnread);
  });
});

describe("refund conversation", () => {
  let refundId: string;
  const thread = async (client: Client): Promise<RefundThread> => {
    const res = await client.get(`/api/refunds/${refundId}/messages`);
    expect(res.statusCode).toBe(200);
    return res.json();
  };
  const write = (client: Client, body: unknown) => client.post(`/api/refunds/${refundId}/messages`, { body });

  test("the seller is notified of the request; buyer and seller write back and forth, each notified", async () => {
    const itemId = order.items[0]?.id ?? "";
    const asked = await buyer.post(`/api/orders/${order.id}/items/${itemId}/refund`, {
      reason: "The board arrived with a cracked connector.",
    });
    expect(asked.statusCode).toBe(201);
    refundId = asked.json().refund.id;
    const [requested] = await listOf(seller.client);
    expect(requested).toMatchObject({ kind: "refund_requested", link: "/dashboard/refunds", read: false });

    const first = await write(
      buyer,
      "  Could you send a replacement connector instead?\r\n\r\n\r\n\u0007Thanks  ",
    );
    expect(first.statusCode).toBe(201);
    expect((first.json() as RefundThread).items).toMatchObject([
      { author: "buyer", mine: true, body: "Could you send a replacement connector instead?\n\nThanks" },
    ]);
    const [message] = await listOf(seller.client);
    expect(message).toMatchObject({ kind: "refund_message", link: "/dashboard/refunds" });
    expect(message?.body).toContain("Could you send a replacement connector instead?");

    expect((await write(seller.client, "Yes: a new connector ships tomorrow.")).statusCode).toBe(201);
    expect((await listOf(buyer))[0]).toMatchObject({ kind: "refund_message", link: "/dashboard/refunds" });
    const seen = await thread(buyer);
    expect(seen.items.map((m) => [m.author, m.mine])).toEqual([
      ["buyer", true],
      ["seller", false],
    ]);
    expect((await thread(seller.client)).items.map((m) => m.mine)).toEqual([false, true]);
    // Admins see every request's conversation, and write as Stackbay.
    expect((await write(admin, "We are following this one.")).statusCode).toBe(201);
    expect((await thread(seller.client)).items.at(-1)).toMatchObject({
      author: "admin",
      authorName: "Stackbay",
    });
  });

  test("someone with no part gets 404, a visitor 401; empty or long text is refused", async () => {
    expect((await stranger.get(`/api/refunds/${refundId}/messages`)).statusCode).toBe(404);
    expect((await write(stranger, "Let me in")).statusCode).toBe(404);
    expect((await createClient(t.app).get(`/api/refunds/${refundId}/messages`)).statusCode).toBe(401);
    expect((await buyer.get(`/api/refunds/${randomUUID()}/messages`)).statusCode).toBe(404);
    const empty = await write(buyer, " \n\t ");
    expect(empty.statusCode).toBe(400);
    expect(empty.json().details[0].message).toBe("Write a message");
    expect((await write(buyer, "x".repeat(2001))).statusCode).toBe(400);
    expect((await write(buyer, 42)).statusCode).toBe(400);
    expect((await thread(buyer)).items).toHaveLength(3);
  });

  test("a person writes a limited number of messages; escalation and the decision notify who acts next", async () => {
    const before = (await thread(buyer)).items.filter((m) => m.mine).length;
    for (let i = before; i < REFUND_MESSAGE_RATE_MAX; i++)
      expect((await write(buyer, `Follow-up number ${i}`)).statusCode).toBe(201);
    const limited = await write(buyer, "One too many");
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe("REFUND_MESSAGE_LIMIT");

    expect(
      (
        await seller.client.post(`/api/refunds/${refundId}/decision`, {
          decision: "reject",
          note: "A new connector is on its way.",
        })
      ).statusCode,
    ).toBe(200);
    expect((await listOf(buyer))[0]).toMatchObject({ kind: "refund_decided", link: "/dashboard/refunds" });
    expect((await buyer.post(`/api/refunds/${refundId}/decision`, { decision: "escalate" })).statusCode).toBe(
      200,
    );
    expect((await listOf(admin)).find((n) => n.kind === "refund_escalated")).toMatchObject({
      link: "/admin/refunds",
    });
    expect((await admin.post(`/api/refunds/${refundId}/decision`, { decision: "approve" })).statusCode).toBe(
      200,
    );
    expect((await listOf(buyer))[0]?.title).toMatch(/is approved$/);
    // A decided request takes no more messages.
    const closed = await write(seller.client, "Anything else?");
    expect(closed.statusCode).toBe(409);
    expect(closed.json().code).toBe("REFUND_CLOSED");
  });

  test("a buyer's refund list shows their own requests only", async () => {
    const mine = await buyer.get("/api/refunds/mine");
    expect(mine.statusCode).toBe(200);
    expect(mine.json().items.map((r: { id: string }) => r.id)).toContain(refundId);
    expect((await stranger.get("/api/refunds/mine")).json().items).toEqual([]);
  });
});
