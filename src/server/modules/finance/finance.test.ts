import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { FinanceSummary, Reconciliation } from "#domain/finance";
import { chargeCents, toUnits } from "#domain/money";
import { products } from "#server/db/schema/catalog";
import { orderItems, orders } from "#server/db/schema/orders";
import { DEMO_PASSWORD } from "#server/db/seed/demo";
import { createTestApp } from "#server/test/app";
import { createClient, signedInClient } from "#server/test/client";
import { placeOrder } from "#server/test/orders";
import { payOrder } from "#server/test/payments";

let t: Awaited<ReturnType<typeof createTestApp>>;
type Client = Awaited<ReturnType<typeof signedInClient>>;
let superAdmin: Client;
let admin: Client;
let buyer: Client;
let seller: Client;
let product: { id: string; price: string };

const today = new Date().toISOString().slice(0, 10);
const period = `from=${today}&to=${today}`;

beforeAll(async () => {
  t = await createTestApp({ seed: true });
  superAdmin = await signedInClient(t.app, "superadmin@stackbay.test", DEMO_PASSWORD);
  admin = await signedInClient(t.app, "admin@stackbay.test", DEMO_PASSWORD);
  buyer = await signedInClient(t.app, "buyer@stackbay.test", DEMO_PASSWORD);
  seller = await signedInClient(t.app, "seller@stackbay.test", DEMO_PASSWORD);
  const [row] = await t.db
    .select({ id: products.id, price: products.price })
    .from(products)
    .where(and(eq(products.category, "software"), eq(products.isActive, true)))
    .limit(1);
  if (!row) throw new Error("the seed has no software product");
  product = row;
});
afterAll(() => t.close());

async function place(): Promise<string> {
  return (await placeOrder(buyer, { items: [{ productId: product.id, price: product.price }] })).orderId;
}

const summary = async () => {
  const res = await superAdmin.get(`/api/admin/finance?${period}`);
  expect(res.statusCode).toBe(200);
  return res.json() as FinanceSummary;
};
const reconciliation = async () => {
  const res = await superAdmin.get("/api/admin/finance/reconciliation");
  expect(res.statusCode).toBe(200);
  return res.json() as Reconciliation;
};
/** A USD figure as units, so deltas compare exactly. */
const u = (usd: number) => Math.round(usd * 10_000);

describe("finance", () => {
  test("only super admins: strangers 401, admins and sellers 403", async () => {
    const anonymous = createClient(t.app);
    for (const url of [
      `/api/admin/finance?${period}`,
      "/api/admin/finance/reconciliation",
      `/api/admin/finance/export.csv?${period}`,
    ]) {
      expect((await anonymous.get(url)).statusCode).toBe(401);
      expect((await admin.get(url)).statusCode).toBe(403);
      expect((await seller.get(url)).statusCode).toBe(403);
    }
  });

  test("a period must be two dates, the start not after the end", async () => {
    const missing = await superAdmin.get("/api/admin/finance?from=2026-01-01");
    expect(missing.statusCode).toBe(400);
    expect(missing.json().code).toBe("VALIDATION_ERROR");
    const reversed = await superAdmin.get("/api/admin/finance?from=2026-02-01&to=2026-01-01");
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().message).toContain("The start date must be on or before the end date");
    expect((await superAdmin.get("/api/admin/finance?from=yesterday&to=2026-01-01")).statusCode).toBe(400);
  });

  test("a paid order shows as its sale, fee, seller net and tax due, and reconciles to no difference", async () => {
    const before = await summary();
    const orderId = await place();
    await payOrder(t.app, buyer, orderId);
    const after = await summary();

    const [order] = await t.db.select().from(orders).where(eq(orders.id, orderId));
    const [item] = await t.db.select().from(orderItems).where(eq(orderItems.orderId, orderId));
    if (!order || !item) throw new Error("order not stored");
    const line = toUnits(item.price) * item.quantity;
    const fee = toUnits(item.fee);
    expect(item.feeRate).toBe("0.1000");
    expect(fee).toBe(Math.round(line / 10));

    const delta = (pick: (s: FinanceSummary) => number) => u(pick(after)) - u(pick(before));
    expect(delta((s) => s.grossSales)).toBe(line);
    expect(delta((s) => s.charged)).toBe(chargeCents(order.totalAmount) * 100);
    expect(delta((s) => s.platformFees)).toBe(fee);
    expect(delta((s) => s.sellerNet)).toBe(line - fee);
    expect(delta((s) => s.resellerCommissions)).toBe(0);
    expect(delta((s) => s.owed.sellersPending)).toBe(line - fee);
    const jurisdiction = order.taxJurisdiction ?? "";
    const taxOf = (s: FinanceSummary) => s.taxByJurisdiction.find((j) => j.jurisdiction === jurisdiction);
    const tax = taxOf(after);
    expect(tax?.label).toBe("UAE VAT");
    expect(u(tax?.due ?? 0) - u(taxOf(before)?.due ?? 0)).toBe(toUnits(order.tax));
    // Every unit charged is explained: items, tax and rounding add up to the charge.
    expect(delta((s) => s.charged)).toBe(line + toUnits(order.tax) + delta((s) => s.rounding));
    expect(after.period).toEqual({ from: today, to: today });

    const books = await reconciliation();
    expect(books.differences.some((d) => d.orderId === orderId)).toBe(false);
    expect(u(books.difference)).toBe(books.differences.reduce((sum, d) => sum + u(d.difference), 0));
  });

  test("an order an admin confirmed by hand is listed: booked with no payment captured", async () => {
    const orderId = await place();
    const confirmed = await admin.patch(`/api/admin/orders/${orderId}`, { paymentStatus: "mock_confirmed" });
    expect(confirmed.statusCode).toBe(200);
    const [order] = await t.db.select().from(orders).where(eq(orders.id, orderId));
    const charged = chargeCents(order?.totalAmount ?? "0") / 100;

    const books = await reconciliation();
    expect(books.differences.find((d) => d.orderId === orderId)).toEqual({
      orderId,
      captured: 0,
      booked: charged,
      difference: -charged,
      reason: "Confirmed by hand, no payment captured",
    });
    expect(u(books.captured) - u(books.booked)).toBe(u(books.difference));
  });

  test("a period before any sale is all zeros", async () => {
    const res = await superAdmin.get("/api/admin/finance?from=2001-01-01&to=2001-12-31");
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      grossSales: 0,
      charged: 0,
      platformFees: 0,
      taxByJurisdiction: [],
      refunds: 0,
      payouts: 0,
    });
  });

  test("the journal exports as CSV, a line per row, formulas defused", async () => {
    const orderId = await place();
    await payOrder(t.app, buyer, orderId);
    const res = await superAdmin.get(`/api/admin/finance/export.csv?${period}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toContain("text/csv");
    expect(res.headers["content-disposition"]).toBe(
      `attachment; filename="stackbay-journal-${today}-to-${today}.csv"`,
    );
    const rows = res.body.trim().split("\r\n");
    expect(rows[0]).toBe("date,entry_kind,memo,order_id,account,debit,credit");
    const sale = rows.filter((row) => row.includes(`"${orderId}"`));
    // Amounts are plain numbers (cents, more places only when used); the empty side is an empty cell.
    expect(sale.some((row) => /,"clearing",\d+\.\d{2,4},""$/.test(row))).toBe(true);
    expect(sale.some((row) => /,"platform_fees","",\d+\.\d{2,4}$/.test(row))).toBe(true);
    expect((await superAdmin.get("/api/admin/finance/export.csv?from=2026-01-01")).statusCode).toBe(400);
  });
});
