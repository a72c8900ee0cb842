import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Order } from "#domain/checkout";
import { DAY_MS } from "#domain/dates";
import { accountId } from "#domain/ledger";
import type { Shipment } from "#domain/shipping";
import { user } from "#server/db/schema/auth";
import { products } from "#server/db/schema/catalog";
import { journalEntries, journalLines } from "#server/db/schema/ledger";
import { orderItems, orders } from "#server/db/schema/orders";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import type { AdjustableClock } from "#server/lib/clock";
import { releaseDue } from "#server/modules/ledger/bookings";
import { deliveryConfirmJob, shippingDepsOf } from "#server/modules/shipping/service";
import { createTestApp } from "#server/test/app";
import { type createClient, createVerifiedAccount, signedInClient } from "#server/test/client";
import { orderBody, placeAndPay, placeOrder } from "#server/test/orders";
import { readOutbox } from "#server/test/outbox";

type Client = ReturnType<typeof createClient>;

const WINDOW_DAYS = 10;
const CONFIRM_DAYS = 5;

let t: Awaited<ReturnType<typeof createTestApp>>;
let buyer: Client;
let otherBuyer: Client;
let seller: Client;
let otherSeller: Client;
let admin: Client;
let sellerId = "";
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp({
    seed: true,
    env: { REFUND_WINDOW_DAYS: String(WINDOW_DAYS), DELIVERY_CONFIRM_DAYS: String(CONFIRM_DAYS) },
  });
  const other = await createVerifiedAccount(t.app, t.dataDir, {
    email: "other-seller@example.com",
    accountType: "seller",
  });
  const secondBuyer = await createVerifiedAccount(t.app, t.dataDir, { email: "second-buyer@example.com" });
  [buyer, otherBuyer, seller, otherSeller, admin] = await Promise.all([
    signedInClient(t.app, "buyer@stackbay.test", DEMO_PASSWORD),
    signedInClient(t.app, secondBuyer.email, secondBuyer.password),
    signedInClient(t.app, "seller@stackbay.test", DEMO_PASSWORD),
    signedInClient(t.app, other.email, other.password),
    signedInClient(t.app, "admin@stackbay.test", DEMO_PASSWORD),
  ]);
  const [row] = await t.db.select({ id: user.id }).from(user).where(eq(user.email, "seller@stackbay.test"));
  sellerId = row?.id ?? "";
  const made = await t.db
    .insert(products)
    .values([
      { name: "Ship Router", category: "hardware", price: "120", vendor: "Acme", sellerId },
      { name: "Ship Suite", category: "software", price: "30", vendor: "Acme", sellerId },
    ])
    .returning({ id: products.id, name: products.name });
  for (const product of made) ids[product.name] = product.id;
});
afterAll(() => t.close());

const address = {
  fullName: "Bianca Buyer",
  line1: "12 Harbour Street",
  line2: "Unit 4",
  city: "Dubai",
  postalCode: "00000",
  country: "AE",
  phone: "+971 4 555 0100",
};

const lines = (names: string[]) =>
  names.map((name) => ({ productId: ids[name] ?? "", price: name === "Ship Router" ? 120 : 30 }));

/** A paid order of the router (and the suite), as the buyer pays it. */
async function paidHardwareOrder(client = buyer): Promise<{ order: Order; itemId: string }> {
  const order = await placeAndPay(t.app, client, {
    items: lines(["Ship Router", "Ship Suite"]),
    shippingAddress: address,
  });
  const item = order.items.find((i) => i.productName === "Ship Router");
  if (!item) throw new Error("no router in the order");
  return { order, itemId: item.id };
}

const ship = (
  client: Client,
  itemId: string,
  values = { carrier: "DHL Express", trackingNumber: "JD0142 7788" },
) => client.post(`/api/shipments/${itemId}/ship`, values);
const confirm = (client: Client, orderId: string, itemId: string) =>
  client.post(`/api/orders/${orderId}/items/${itemId}/confirm-delivery`);

async function itemRow(itemId: string) {
  const [row] = await t.db.select().from(orderItems).where(eq(orderItems.id, itemId));
  if (!row) throw new Error("item gone");
  return row;
}

function clock(): AdjustableClock {
  return t.app.clock as AdjustableClock;
}

describe("checkout", () => {
  test("a cart with a physical item needs a shipping address; the order keeps it", async () => {
    const missing = await buyer.post(
      "/api/orders",
      orderBody({ items: lines(["Ship Router"]), shippingAddress: null }),
    );
    expect(missing.statusCode).toBe(400);
    // A code of its own, so that checkout shows the address fields without reading the message.
    expect(missing.json()).toMatchObject({
      code: "SHIPPING_ADDRESS_REQUIRED",
      message: "A shipping address is needed for physical items",
      details: [{ path: "shippingAddress" }],
    });

    const { order } = await paidHardwareOrder();
    expect(order.shippingAddress).toEqual(address);
    const router = order.items.find((i) => i.productName === "Ship Router");
    const suite = order.items.find((i) => i.productName === "Ship Suite");
    expect(router?.shipping).toMatchObject({
      state: "awaiting_shipment",
      carrier: null,
      trackingNumber: null,
    });
    // The physical item's refund window waits for delivery; the digital one counts from the order.
    expect(router?.refundableUntil).toBeNull();
    expect(suite?.shipping).toBeNull();
    expect(suite?.refundableUntil).toBe(order.refundableUntil);
  });

  test("an invalid address is refused field by field", async () => {
    const res = await buyer.post(
      "/api/orders",
      orderBody({
        items: lines(["Ship Router"]),
        shippingAddress: { ...address, postalCode: "", phone: "call me" },
      }),
    );
    expect(res.statusCode).toBe(400);
    const paths = (res.json().details as { path: string }[]).map((d) => d.path);
    expect(paths).toEqual(expect.arrayContaining(["shippingAddress.postalCode", "shippingAddress.phone"]));
  });

  test("a digital cart needs no address, ignores one sent anyway, and is delivered at payment", async () => {
    const order = await placeAndPay(t.app, buyer, {
      items: lines(["Ship Suite"]),
      shippingAddress: null,
    });
    expect(order.paymentStatus).toBe("mock_confirmed");
    expect(order.shippingAddress).toBeNull();
    expect(order.items[0]?.shipping).toBeNull();
    const row = await itemRow(order.items[0]?.id ?? "");
    expect(row.settlesAt?.getTime()).toBeGreaterThan(Date.now() + (WINDOW_DAYS - 1) * DAY_MS);

    const claimed = await placeAndPay(t.app, buyer, {
      items: lines(["Ship Suite"]),
      shippingAddress: address,
    });
    expect(claimed.shippingAddress).toBeNull();
  });
});

describe("shipping", () => {
  test("the physical item's net waits with no settling date until delivery", async () => {
    const { itemId } = await paidHardwareOrder();
    const row = await itemRow(itemId);
    expect(row.shippingState).toBe("awaiting_shipment");
    expect(row.settlesAt).toBeNull();
    // Even far past the window, nothing is released before delivery.
    expect(await releaseDue(t.db, new Date(Date.now() + 100 * DAY_MS))).toBeGreaterThanOrEqual(0);
    const released = await t.db
      .select()
      .from(journalEntries)
      .where(and(eq(journalEntries.kind, "release"), eq(journalEntries.orderItemId, itemId)));
    expect(released).toHaveLength(0);
  });

  test("the seller sees the item to ship with its address; another seller neither sees nor ships it", async () => {
    const { order, itemId } = await paidHardwareOrder();
    const list = await seller.get("/api/seller/shipments");
    expect(list.statusCode).toBe(200);
    const found = (list.json().items as Shipment[]).find((s) => s.orderItemId === itemId);
    expect(found).toMatchObject({ orderId: order.id, productName: "Ship Router", address });

    const theirs = await otherSeller.get("/api/seller/shipments");
    expect((theirs.json().items as Shipment[]).some((s) => s.orderItemId === itemId)).toBe(false);
    const refused = await ship(otherSeller, itemId);
    expect(refused.statusCode).toBe(404);
    expect(refused.json().code).toBe("SHIPMENT_NOT_FOUND");
    // A buyer is no seller at all.
    expect((await ship(buyer, itemId)).statusCode).toBe(403);
    expect((await itemRow(itemId)).shippingState).toBe("awaiting_shipment");
  });

  test("an unpaid order does not ship", async () => {
    const { orderId } = await placeOrder(buyer, { items: lines(["Ship Router"]), shippingAddress: address });
    const [row] = await t.db
      .select({ id: orderItems.id })
      .from(orderItems)
      .where(eq(orderItems.orderId, orderId));
    const refused = await ship(seller, row?.id ?? "");
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe("ORDER_NOT_PAID");
  });

  test("shipping e-mails the buyer the tracking number once; replays are harmless; no going back", async () => {
    const { order, itemId } = await paidHardwareOrder();
    const subject = `Ship Router from order ${order.id.slice(0, 8).toUpperCase()} has shipped`;
    const res = await ship(seller, itemId);
    expect(res.statusCode).toBe(200);
    expect(res.json().shipment.shipping).toMatchObject({
      state: "shipped",
      carrier: "DHL Express",
      trackingNumber: "JD0142 7788",
    });
    const mails = (await readOutbox(t.dataDir)).filter((m) => m.subject === subject);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.to).toBe("buyer@stackbay.test");
    expect(mails[0]?.body).toContain("JD0142 7788");
    expect(mails[0]?.body).toContain("DHL Express");

    expect((await ship(seller, itemId)).statusCode).toBe(200);
    const changed = await ship(seller, itemId, { carrier: "UPS", trackingNumber: "1Z999" });
    expect(changed.statusCode).toBe(409);
    expect(changed.json().code).toBe("ALREADY_SHIPPED");
    expect((await readOutbox(t.dataDir)).filter((m) => m.subject === subject)).toHaveLength(1);

    const seen = await buyer.get(`/api/orders/${order.id}`);
    expect(seen.json().order.items.find((i: { id: string }) => i.id === itemId).shipping.state).toBe(
      "shipped",
    );
  });

  test("an admin may ship any seller's item", async () => {
    const { itemId } = await paidHardwareOrder();
    expect((await ship(admin, itemId)).statusCode).toBe(200);
  });
});

describe("refunds of physical items", () => {
  test("the window counts from delivery: an old order's undelivered item can still be refunded", async () => {
    const { order, itemId } = await paidHardwareOrder();
    await t.db
      .update(orders)
      .set({ createdAt: new Date(Date.now() - (WINDOW_DAYS + 5) * DAY_MS) })
      .where(eq(orders.id, order.id));
    const suite = order.items.find((i) => i.productName === "Ship Suite")?.id ?? "";
    const reason = { reason: "The parcel never arrived at my office." };
    const digital = await buyer.post(`/api/orders/${order.id}/items/${suite}/refund`, reason);
    expect(digital.statusCode).toBe(409);
    expect(digital.json().code).toBe("REFUND_WINDOW_CLOSED");
    const physical = await buyer.post(`/api/orders/${order.id}/items/${itemId}/refund`, reason);
    expect(physical.statusCode).toBe(201);
  });
});

describe("delivery", () => {
  test("only the order's buyer confirms, and not before shipping", async () => {
    const { order, itemId } = await paidHardwareOrder();
    const early = await confirm(buyer, order.id, itemId);
    expect(early.statusCode).toBe(409);
    expect(early.json().code).toBe("NOT_SHIPPED");
    await ship(seller, itemId);

    const stranger = await confirm(otherBuyer, order.id, itemId);
    expect(stranger.statusCode).toBe(404);
    expect((await confirm(seller, order.id, itemId)).statusCode).toBe(404);
    expect((await itemRow(itemId)).shippingState).toBe("shipped");
  });

  test("the buyer's confirmation delivers the item and starts its refund window and settling date", async () => {
    const { order, itemId } = await paidHardwareOrder();
    await ship(seller, itemId);
    const before = Date.now();
    const res = await confirm(buyer, order.id, itemId);
    expect(res.statusCode).toBe(200);
    expect(res.json().shipment.shipping).toMatchObject({ state: "delivered", deliveredBy: "buyer" });
    const row = await itemRow(itemId);
    expect(row.deliveredAt?.getTime()).toBeGreaterThanOrEqual(before);
    expect(row.settlesAt?.getTime()).toBe((row.deliveredAt?.getTime() ?? 0) + WINDOW_DAYS * DAY_MS);

    const seen = (await buyer.get(`/api/orders/${order.id}`)).json().order as Order;
    const item = seen.items.find((i) => i.id === itemId);
    expect(item?.refundableUntil).toBe(row.settlesAt?.toISOString());

    // Again: harmless, the same answer; shipping again with other values is refused.
    const again = await confirm(buyer, order.id, itemId);
    expect(again.statusCode).toBe(200);
    expect((await itemRow(itemId)).deliveredAt?.getTime()).toBe(row.deliveredAt?.getTime());
    expect((await ship(seller, itemId, { carrier: "UPS", trackingNumber: "1Z999" })).statusCode).toBe(409);
    expect((await itemRow(itemId)).shippingState).toBe("delivered");
  });

  test("the seller's net is released once the window from delivery has passed, and the ledger balances", async () => {
    const { order, itemId } = await paidHardwareOrder();
    await ship(seller, itemId);
    await confirm(buyer, order.id, itemId);
    const row = await itemRow(itemId);
    const settles = row.settlesAt ?? new Date();
    const released = async () =>
      t.db
        .select()
        .from(journalEntries)
        .where(and(eq(journalEntries.kind, "release"), eq(journalEntries.orderItemId, itemId)));
    await releaseDue(t.db, new Date(settles.getTime() - 1000));
    expect(await released()).toHaveLength(0);
    await releaseDue(t.db, settles);
    expect(await released()).toHaveLength(1);
    const pending = await t.db
      .select({ amount: journalLines.amount })
      .from(journalLines)
      .where(
        and(
          eq(journalLines.orderItemId, itemId),
          eq(journalLines.accountId, accountId({ kind: "seller_pending", owner: sellerId })),
        ),
      );
    expect(pending.reduce((sum, line) => sum + line.amount, 0)).toBe(0);
  });

  test("a shipped item nobody confirms is delivered automatically after DELIVERY_CONFIRM_DAYS", async () => {
    const { order, itemId } = await paidHardwareOrder();
    await ship(seller, itemId);
    const job = deliveryConfirmJob(shippingDepsOf(t.app));

    clock().advance((CONFIRM_DAYS - 1) * DAY_MS);
    await job.run(undefined as never, { id: "test", retryCount: 0 });
    expect((await itemRow(itemId)).shippingState).toBe("shipped");

    const now = clock().advance(1 * DAY_MS + 60_000);
    await job.run(undefined as never, { id: "test", retryCount: 0 });
    const row = await itemRow(itemId);
    expect(row).toMatchObject({ shippingState: "delivered", deliveredBy: "automatic" });
    expect(Math.abs((row.deliveredAt?.getTime() ?? 0) - now.getTime())).toBeLessThan(5_000);
    expect(row.settlesAt?.getTime()).toBe((row.deliveredAt?.getTime() ?? 0) + WINDOW_DAYS * DAY_MS);

    // The buyer confirming afterwards changes nothing.
    expect((await confirm(buyer, order.id, itemId)).json().shipment.shipping.deliveredBy).toBe("automatic");
  });
});
