import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Order } from "#domain/checkout";
import { DAY_MS } from "#domain/dates";
import type { BalanceSummary, EarningsOverview } from "#domain/earnings";
import type { PayoutBatchDetail, PayoutPreview } from "#domain/finance";
import { refundRequests } from "#server/db/schema/after-sale";
import { journalEntries, journalLines } from "#server/db/schema/ledger";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import { releaseDue } from "#server/modules/ledger/bookings";
import { createTestApp } from "#server/test/app";
import { signedInClient } from "#server/test/client";
import { placeAndPay } from "#server/test/orders";
import { eventsDelivered } from "#server/test/payments";
import { sellerWithProduct } from "#server/test/sellers";

/**
 * An open refund request holds the item's earnings (decision 0010): the release waits for the decision,
 * a payout leaves a net released before the request unpaid, and a refund approved after the money was
 * paid out is clawed back from later earnings, shown to the seller.
 */
let t: Awaited<ReturnType<typeof createTestApp>>;
type Client = Awaited<ReturnType<typeof signedInClient>>;
let buyer: Client;
let seller: Client;
let admin: Client;
let superAdmin: Client;
let sellerId: string;
let product: { id: string; price: number };

beforeAll(async () => {
  t = await createTestApp({ seed: true });
  const as = (who: string) => signedInClient(t.app, `${who}@stackbay.test`, DEMO_PASSWORD);
  buyer = await as("buyer");
  admin = await as("admin");
  superAdmin = await as("superadmin");
  const mine = await sellerWithProduct(t, "seller@refund-hold.test", "software");
  seller = mine.client;
  sellerId = mine.id;
  product = mine.product;
});
afterAll(() => t.close());

async function buy(): Promise<Order> {
  return placeAndPay(t.app, buyer, { items: [{ productId: product.id, price: product.price }] });
}

const net = () => {
  const line = Math.round(product.price * 10_000);
  return line - Math.round(line / 10);
};
const later = (days: number) => new Date(Date.now() + days * DAY_MS);

async function sellerBalance(kind: "seller_pending" | "seller_available"): Promise<number> {
  const [row] = await t.db
    .select({ total: sql<number>`-coalesce(sum(${journalLines.amount}), 0)`.mapWith(Number) })
    .from(journalLines)
    .where(eq(journalLines.accountId, `${kind}:${sellerId}`));
  return row?.total ?? 0;
}

const released = async (itemId: string) =>
  (
    await t.db
      .select({ occurredAt: journalEntries.occurredAt })
      .from(journalEntries)
      .where(eq(journalEntries.sourceKey, `release:${itemId}`))
  )[0];

async function ask(order: Order) {
  const itemId = order.items[0]?.id ?? "";
  const res = await buyer.post(`/api/orders/${order.id}/items/${itemId}/refund`, {
    reason: "The license does not activate on our servers.",
  });
  expect(res.statusCode).toBe(201);
  return { itemId, refundId: res.json().refund.id as string };
}
const decide = async (client: Client, id: string, decision: string) => {
  const res = await client.post(`/api/refunds/${id}/decision`, { decision });
  expect(res.statusCode).toBe(200);
  await eventsDelivered(t.app);
};
const preview = async () =>
  ((await superAdmin.get("/api/admin/payouts/preview?minimum=1")).json() as PayoutPreview).candidates.find(
    (c) => c.userId === sellerId && c.role === "seller",
  );
const runBatch = () =>
  superAdmin.post("/api/admin/payouts/batches", {
    minimum: 1,
    payees: [{ userId: sellerId, role: "seller" }],
  });
const earnings = async () =>
  ((await seller.get("/api/earnings")).json() as EarningsOverview).balances.find(
    (b) => b.role === "seller",
  ) as BalanceSummary;

describe("an open refund request holds the item's earnings", () => {
  test("requested, declined by the seller and escalated, the net stays pending past the window; rejected for good, the next release makes it available", async () => {
    const order = await buy();
    const { itemId, refundId } = await ask(order);
    expect(await releaseDue(t.db, later(15))).toBe(0);
    expect(await released(itemId)).toBeUndefined();
    expect(await sellerBalance("seller_pending")).toBe(net());

    await decide(seller, refundId, "reject");
    expect(await releaseDue(t.db, later(16))).toBe(0);
    await decide(buyer, refundId, "escalate");
    expect(await releaseDue(t.db, later(17))).toBe(0);
    expect(await sellerBalance("seller_available")).toBe(0);

    await decide(admin, refundId, "reject");
    const [decided] = await t.db.select().from(refundRequests).where(eq(refundRequests.id, refundId));
    expect(await releaseDue(t.db, later(18))).toBe(1);
    const entry = await released(itemId);
    expect(entry?.occurredAt.getTime()).toBeGreaterThanOrEqual(decided?.resolvedAt?.getTime() ?? Infinity);
    expect(await sellerBalance("seller_available")).toBe(net());
    expect(await sellerBalance("seller_pending")).toBe(0);
  });

  test("an unanswered request approved after the window takes the net back from pending: the seller never had it", async () => {
    const availableBefore = await sellerBalance("seller_available");
    const order = await buy();
    const { itemId, refundId } = await ask(order);
    await t.db
      .update(refundRequests)
      .set({ sellerDueAt: new Date(Date.now() - 60_000) })
      .where(and(eq(refundRequests.id, refundId)));
    expect(await releaseDue(t.db, later(20))).toBe(0);
    await decide(buyer, refundId, "escalate");
    expect(await releaseDue(t.db, later(21))).toBe(0);
    await decide(admin, refundId, "approve");
    expect(await releaseDue(t.db, later(22))).toBe(0);
    expect(await released(itemId)).toBeUndefined();
    expect(await sellerBalance("seller_pending")).toBe(0);
    expect(await sellerBalance("seller_available")).toBe(availableBefore);
    expect((await earnings()).clawbacks).toEqual([]);
  });

  test("a net released before the request was made is not paid while it is open; approved after a payout, it is clawed back from later earnings", async () => {
    const bank = await seller.request("PUT", "/api/payouts/account/bank", {
      holderName: "Sami Seller",
      country: "DE",
      iban: "DE89 3704 0044 0532 0130 00",
      swift: "DEUTDEFF",
    });
    expect(bank.statusCode).toBe(200);
    expect((await superAdmin.post("/api/test/clock", { advanceDays: 3 })).statusCode).toBe(200);
    // Pay out what is there, so the rest of the test starts from a balance of less than a cent.
    expect((await runBatch()).statusCode).toBe(201);
    const rest = await sellerBalance("seller_available");
    expect(rest).toBeLessThan(100);

    // Released first (the window was shorter when it was sold), then the buyer asks.
    const order = await buy();
    expect(await releaseDue(t.db, later(30))).toBe(1);
    const { refundId } = await ask(order);
    expect(await preview()).toMatchObject({
      skipReason: "Held while refund requests on sold items are open",
    });
    expect((await runBatch()).json().code).toBe("NOTHING_TO_PAY");

    // Another sale becomes available: only it is paid, the held net stays.
    await buy();
    expect(await releaseDue(t.db, later(31))).toBe(1);
    const batch = (await runBatch()).json() as PayoutBatchDetail;
    expect(Math.round((batch.payouts[0]?.amount ?? 0) * 10_000)).toBe(Math.floor((rest + net()) / 100) * 100);
    expect(await sellerBalance("seller_available")).toBeGreaterThanOrEqual(net());

    // The seller declines and the buyer lets it be for now: still open, still held.
    await decide(seller, refundId, "reject");
    expect((await runBatch()).json().code).toBe("NOTHING_TO_PAY");
    // Escalated and approved: the held net pays the refund, and nothing was paid for the item.
    await decide(buyer, refundId, "escalate");
    await decide(admin, refundId, "approve");
    const afterRefund = await sellerBalance("seller_available");
    expect(afterRefund).toBeGreaterThanOrEqual(0);
    expect(afterRefund).toBeLessThan(100);
    const [clawback] = (await earnings()).clawbacks;
    expect(clawback).toMatchObject({ label: `Refund clawback — order ${order.id.slice(0, 8)}` });
    expect(Math.round((clawback?.amount ?? 0) * 10_000)).toBe(-net());
  });

  test("a refund approved after its net was paid out leaves the balance negative, listed for the seller; no payout is made until later earnings cover it", async () => {
    const order = await buy();
    expect(await releaseDue(t.db, later(40))).toBe(1);
    expect((await runBatch()).statusCode).toBe(201);
    const { refundId } = await ask(order);
    await decide(seller, refundId, "approve");
    const owed = await sellerBalance("seller_available");
    expect(owed).toBeLessThan(0);
    const mine = await earnings();
    expect(mine.available).toBeLessThan(0);
    expect(mine.clawbacks[0]?.label).toBe(`Refund clawback — order ${order.id.slice(0, 8)}`);
    expect(await preview()).toMatchObject({ skipReason: "Negative balance: recovered from later earnings" });
    expect((await runBatch()).json().code).toBe("NOTHING_TO_PAY");

    // One more sale only covers the debt; the one after it is paid, less what the debt took.
    await buy();
    expect(await releaseDue(t.db, later(41))).toBe(1);
    expect((await runBatch()).json().code).toBe("NOTHING_TO_PAY");
    await buy();
    expect(await releaseDue(t.db, later(42))).toBe(1);
    const batch = (await runBatch()).json() as PayoutBatchDetail;
    expect(Math.round((batch.payouts[0]?.amount ?? 0) * 10_000)).toBe(
      Math.floor((owed + 2 * net()) / 100) * 100,
    );
  });
});
