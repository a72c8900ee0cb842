import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Order } from "#domain/checkout";
import { csvAmount } from "#domain/csv";
import { DAY_MS } from "#domain/dates";
import type { BalanceSummary, EarningsOverview, SaleLine, SellerStats } from "#domain/earnings";
import { payoutLines } from "#domain/ledger";
import { toUnits } from "#domain/money";
import { user } from "#server/db/schema/auth";
import { products } from "#server/db/schema/catalog";
import { payoutBatches, payouts } from "#server/db/schema/ledger";
import { orderItems, orders } from "#server/db/schema/orders";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import { releaseDue } from "#server/modules/ledger/bookings";
import { post } from "#server/modules/ledger/service";
import { createTestApp } from "#server/test/app";
import { createClient, createVerifiedAccount, signedInClient } from "#server/test/client";
import { placeOrder } from "#server/test/orders";
import { payOrder } from "#server/test/payments";
import { sellerWithProduct } from "#server/test/sellers";

let t: Awaited<ReturnType<typeof createTestApp>>;
type Client = Awaited<ReturnType<typeof signedInClient>>;
let buyer: Client;
let seller: Client;
let sellerId: string;
let otherSeller: Client;
let software: { id: string; price: number };

beforeAll(async () => {
  t = await createTestApp({ seed: true });
  buyer = await signedInClient(t.app, "buyer@stackbay.test", DEMO_PASSWORD);
  const mine = await sellerWithProduct(t, "seller@earnings.test", "software");
  seller = mine.client;
  sellerId = mine.id;
  software = mine.product;
  const other = await createVerifiedAccount(t.app, t.dataDir, { email: "other-seller@earnings.test" });
  await t.db.update(user).set({ isSeller: true }).where(eq(user.email, other.email));
  otherSeller = await signedInClient(t.app, other.email, other.password);
});
afterAll(() => t.close());

async function buy(referredBy?: string): Promise<Order> {
  const { orderId } = await placeOrder(buyer, {
    country: "Portugal",
    items: [{ productId: software.id, price: software.price }],
  });
  if (referredBy) {
    // As if the buyer had followed the reseller's link just before checking out.
    await t.db
      .update(orders)
      .set({ referral: { resellerId: referredBy, clickedAt: new Date().toISOString() } })
      .where(eq(orders.id, orderId));
  }
  return payOrder(t.app, buyer, orderId);
}

const sales = async (client: Client) => (await client.get("/api/earnings/sales")).json().items as SaleLine[];
const overview = async (client: Client) => (await client.get("/api/earnings")).json() as EarningsOverview;
const sellerBalance = async () =>
  (await overview(seller)).balances.find((b) => b.role === "seller") as BalanceSummary;
const lineOf = async (itemId: string) => (await sales(seller)).find((line) => line.orderItemId === itemId);
const units = (...amounts: number[]) => amounts.reduce((sum, amount) => sum + toUnits(amount), 0);

describe("earnings", () => {
  let first: Order;
  let second: Order;

  test("a confirmed sale is pending until its refund window ends, with the 10% fee taken", async () => {
    const before = await sellerBalance();
    first = await buy();
    const itemId = first.items[0]?.id ?? "";
    const line = await lineOf(itemId);
    expect(line).toMatchObject({
      orderId: first.id,
      productName: first.items[0]?.productName,
      quantity: 1,
      gross: software.price,
      feeRate: 0.1,
      commission: 0,
      status: "pending",
    });
    expect(line?.fee).toBe(Number((software.price * 0.1).toFixed(4)));
    expect(units(line?.net ?? 0)).toBe(units(software.price) - units(line?.fee ?? 0));
    expect(line?.taxLabel).toBeTruthy();
    const availableAt = new Date(line?.availableAt ?? 0).getTime();
    expect(availableAt - Date.now()).toBeGreaterThan(13 * DAY_MS);
    expect(availableAt - Date.now()).toBeLessThan(15 * DAY_MS);

    const after = await sellerBalance();
    expect(units(after.pending) - units(before.pending)).toBe(units(line?.net ?? 0));
    const day = (line?.availableAt ?? "").slice(0, 10);
    expect(after.upcoming.find((u) => u.date === day)?.amount).toBeGreaterThanOrEqual(line?.net ?? 0);
    const overviewNow = await overview(seller);
    expect(overviewNow.payoutMinimum).toBe(50);
    expect(overviewNow.series).toHaveLength(12);
    const thisMonth = overviewNow.series.at(-1);
    expect(thisMonth?.month).toBe(new Date().toISOString().slice(0, 7));
    expect(thisMonth?.gross).toBeGreaterThanOrEqual(software.price);
  });

  test("only the seller sees their sales: another seller sees none, a buyer is refused", async () => {
    expect(await sales(otherSeller)).toEqual([]);
    const others = await overview(otherSeller);
    expect(others.balances).toEqual([
      { role: "seller", pending: 0, available: 0, inTransit: 0, paid: 0, upcoming: [], clawbacks: [] },
    ]);
    expect((await otherSeller.get("/api/earnings/stats")).json()).toEqual({
      ordersReceived: 0,
      grossSales: 0,
      netEarnings: 0,
    });
    const refused = await buyer.get("/api/earnings/sales");
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe("FORBIDDEN");
    expect((await buyer.get("/api/earnings/sales.csv")).statusCode).toBe(403);
    expect((await buyer.get("/api/earnings/stats")).statusCode).toBe(403);
    expect((await overview(buyer)).balances).toEqual([]);
    expect((await buyer.get("/api/earnings/payouts")).json().items).toEqual([]);
    expect((await createClient(t.app).get("/api/earnings")).statusCode).toBe(401);
    expect((await seller.get("/api/earnings")).headers["cache-control"]).toBe("private, no-store");
  });

  test("past the window the net is available; a refund after that takes it back", async () => {
    const itemId = first.items[0]?.id ?? "";
    const net = units((await lineOf(itemId))?.net ?? 0);
    const before = await sellerBalance();
    await releaseDue(t.db, new Date(Date.now() + 15 * DAY_MS));
    expect((await lineOf(itemId))?.status).toBe("available");
    const released = await sellerBalance();
    expect(units(released.available) - units(before.available)).toBe(net);
    expect(units(before.pending) - units(released.pending)).toBe(net);
    expect(released.upcoming.find((u) => u.date === (before.upcoming[0]?.date ?? ""))).toBeUndefined();

    const asked = await buyer.post(`/api/orders/${first.id}/items/${itemId}/refund`, {
      reason: "The license does not activate on our servers.",
    });
    expect(asked.statusCode).toBe(201);
    const decided = await seller.post(`/api/refunds/${asked.json().refund.id}/decision`, {
      decision: "approve",
    });
    expect(decided.statusCode).toBe(200);
    expect((await lineOf(itemId))?.status).toBe("refunded");
    const refunded = await sellerBalance();
    expect(units(released.available) - units(refunded.available)).toBe(net);
    // Taken back after it was available: the seller reads why, with the order, above everything else.
    expect(released.clawbacks).toEqual([]);
    expect(refunded.clawbacks[0]).toMatchObject({
      label: `Refund clawback — order ${first.id.slice(0, 8)}`,
    });
    expect(units(refunded.clawbacks[0]?.amount ?? 0)).toBe(-net);
  });

  test("pending + available + in transit + paid is the sales' net less refunds, and the stats say so", async () => {
    second = await buy();
    await buy();
    // A payout of part of what is available (as the lead's batches book it), still on its way.
    await releaseDue(t.db, new Date(Date.now() + 15 * DAY_MS));
    const [batch] = await t.db.insert(payoutBatches).values({ minimum: "50" }).returning();
    const amount = toUnits(software.price * 0.5);
    const [payout] = await t.db
      .insert(payouts)
      .values({
        batchId: batch?.id ?? "",
        userId: sellerId,
        role: "seller",
        amount: String(amount / 10_000),
        method: "bank",
        destination: "•••• 1234",
      })
      .returning();
    await t.db.transaction((tx) =>
      post(tx, {
        kind: "payout",
        sourceKey: `payout:${payout?.id}`,
        memo: "Payout",
        payoutId: payout?.id,
        occurredAt: new Date(),
        lines: payoutLines({ role: "seller", owner: sellerId }, amount),
      }),
    );

    const balance = await sellerBalance();
    expect(units(balance.inTransit)).toBe(amount);
    expect(balance.paid).toBe(0);
    const all = await sales(seller);
    expect(all.map((l) => l.orderId).slice(0, 2)).toContain(second.id);
    const kept = all.filter((l) => l.status !== "refunded");
    const total = units(balance.pending, balance.available, balance.inTransit, balance.paid);
    expect(total).toBe(units(...kept.map((l) => l.net)));

    const stats = (await seller.get("/api/earnings/stats")).json() as SellerStats;
    expect(stats.ordersReceived).toBe(new Set(all.map((l) => l.orderId)).size);
    expect(units(stats.grossSales)).toBe(units(...all.map((l) => l.gross)));
    expect(units(stats.netEarnings)).toBe(total);

    const history = (await seller.get("/api/earnings/payouts")).json();
    expect(history.items).toEqual([
      expect.objectContaining({ id: payout?.id, role: "seller", status: "processing", method: "bank" }),
    ]);
    expect((await otherSeller.get("/api/earnings/payouts")).json().total).toBe(0);
  });

  test("a referred sale: the reseller's commission is pending for them and comes off the seller's net", async () => {
    const reseller = await signedInClient(t.app, "reseller@stackbay.test", DEMO_PASSWORD);
    const [row] = await t.db
      .select({ id: user.id })
      .from(user)
      .where(eq(user.email, "reseller@stackbay.test"));
    await t.db.update(products).set({ isResellable: true }).where(eq(products.id, software.id));
    const before = (await overview(reseller)).balances;
    expect(before.map((b) => b.role)).toEqual(["reseller"]);
    const order = await buy(row?.id);
    const line = await lineOf(order.items[0]?.id ?? "");
    expect(line?.commission).toBeGreaterThan(0);
    expect(units(line?.net ?? 0)).toBe(units(software.price) - units(line?.fee ?? 0, line?.commission ?? 0));
    const [mine] = (await overview(reseller)).balances;
    expect(units(mine?.pending ?? 0) - units(before[0]?.pending ?? 0)).toBe(units(line?.commission ?? 0));
    expect(mine?.upcoming.at(-1)?.date).toBe((line?.availableAt ?? "").slice(0, 10));
    // The reseller sells nothing themself: sales and seller figures are not theirs to see.
    expect((await reseller.get("/api/earnings/sales")).statusCode).toBe(403);
  });

  test("the CSV lists every sale, numbers as plain decimals, a formula-like name defused", async () => {
    const itemId = second.items[0]?.id ?? "";
    await t.db
      .update(orderItems)
      .set({ productName: '=HYPERLINK("http://x","y")' })
      .where(eq(orderItems.id, itemId));
    const res = await seller.get("/api/earnings/sales.csv");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(res.headers["content-disposition"]).toBe(
      `attachment; filename="stackbay-sales-${new Date().toISOString().slice(0, 10)}.csv"`,
    );
    const rows = res.body.trimEnd().split("\r\n");
    expect(rows[0]).toBe(
      "sold_at,order_id,product,quantity,gross,fee_rate,fee,commission,tax,tax_label,net,status,available_at",
    );
    const all = await sales(seller);
    expect(rows).toHaveLength(all.length + 1);
    const row = rows.find((r) => r.includes(second.id)) ?? "";
    expect(row).toContain(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(row).toMatch(/,0\.1000,/);
    expect(row).toMatch(/^"\d{4}-\d\d-\d\dT[\d:.]+Z",/);
    // The first sale's product name has no comma, so its fields split plainly.
    const gross = (rows.find((r) => r.includes(first.id)) ?? "").split(",")[4] ?? "";
    expect(gross).toMatch(/^\d+\.\d{2,4}$/);
    expect(toUnits(gross)).toBe(toUnits(software.price));
    expect((await otherSeller.get("/api/earnings/sales.csv")).body.trimEnd().split("\r\n")).toHaveLength(1);
  });
});

test("CSV amounts keep cents and only the places a fee needs", () => {
  expect([12.5, 12, 0.345, 1.2345, -3.1, 0].map(csvAmount)).toEqual([
    "12.50",
    "12.00",
    "0.345",
    "1.2345",
    "-3.10",
    "0.00",
  ]);
});
